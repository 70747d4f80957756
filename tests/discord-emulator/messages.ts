import { invalidBody } from './http-errors.js';
import { snowflake } from './snowflake.js';
import type {
  AllowedMentionsBody,
  ApiAttachment,
  ApiMessage,
  ApiUser,
  JsonObject,
  MessageBody,
  RecordedFile,
} from './types.js';
import { World } from './world.js';

/** Message flags the bot may set when sending (suppress embeds/notifications, ephemeral, components v2). */
export const SETTABLE_FLAGS = 4 | 64 | 4096 | 32_768;
export const EPHEMERAL = 64;
export const LOADING = 128;
const MessageType = { Default: 0, Reply: 19, ChatInputCommand: 20 } as const;

export interface AttachmentInput {
  name: string;
  data: Buffer | string;
  contentType?: string;
  description?: string;
}

/** A message a (non-bot) user posts, as scripted by a test. */
export interface UserMessageInput {
  /** Optional consistency check: must be the channel's guild. */
  guildId?: string;
  channelId: string;
  authorId: string;
  content?: string;
  /** Extra mentioned user ids; `<@id>` mentions in `content` are detected automatically. */
  mentions?: string[];
  mentionRoles?: string[];
  /** Id of the message this one replies to. */
  replyTo?: string;
  /** Whether a reply pings (adds) the replied-to author to `mentions` (default true, like the client). */
  replyPing?: boolean;
  attachments?: AttachmentInput[];
  embeds?: JsonObject[];
  components?: JsonObject[];
  /** Defaults to a fresh snowflake (which also defines the timestamp). */
  id?: string;
}

export interface BotMessageExtras {
  webhookId?: string;
  interactionMetadata?: JsonObject;
  type?: number;
  flags?: number;
}

const MENTION = /<@!?(\d{1,20})>/g;

interface AttachmentBody {
  id?: unknown;
  filename?: unknown;
  description?: unknown;
}

/** Builds wire-accurate message objects from test input or from bot REST bodies. */
export class MessageFactory {
  readonly #world: World;
  readonly #cdnBase: () => string;

  constructor(world: World, cdnBase: () => string) {
    this.#world = world;
    this.#cdnBase = cdnBase;
  }

  fromUser(input: UserMessageInput): ApiMessage {
    const world = this.#world;
    const channel = world.channel(input.channelId);
    const id = input.id ?? snowflake();
    const content = input.content ?? '';
    const mentioned = new Set([...parseMentions(content), ...(input.mentions ?? [])]);
    const base = this.#base(id, channel.id, world.user(input.authorId), content);
    base.mention_roles = [...(input.mentionRoles ?? [])];
    base.mention_everyone = /@(everyone|here)/.test(content);
    base.embeds = input.embeds ?? [];
    base.components = input.components ?? [];
    base.attachments = (input.attachments ?? []).map((a) => this.storeAttachment(channel.id, a));
    if (input.replyTo !== undefined) {
      const target = this.#attachReference(base, input.replyTo);
      if (input.replyPing !== false) mentioned.add(target.author.id);
    }
    base.mentions = this.#mentionObjects(base.guild_id, mentioned);
    return base;
  }

  /** A message created by the bot from a REST body (channel message, interaction reply, followup). */
  fromBot(
    channelId: string,
    body: MessageBody,
    files: RecordedFile[],
    extras: BotMessageExtras = {},
  ): ApiMessage {
    const world = this.#world;
    const message = this.#base(snowflake(), world.channel(channelId).id, world.botUser, '');
    if (extras.webhookId !== undefined) {
      message.webhook_id = extras.webhookId;
      message.application_id = world.applicationId;
    }
    if (extras.interactionMetadata) message.interaction_metadata = extras.interactionMetadata;
    if (extras.type !== undefined) message.type = extras.type;
    message.flags = extras.flags ?? 0;
    if (typeof body.nonce === 'string' || typeof body.nonce === 'number') message.nonce = body.nonce;
    if (body.tts === true) message.tts = true;
    const referenced = body.message_reference?.message_id;
    if (typeof referenced === 'string') this.#attachReference(message, referenced);
    this.applyEdit(message, body, files, false);
    return message;
  }

  /** Applies an edit body (content/embeds/components/flags/attachments) in place. */
  applyEdit(message: ApiMessage, body: MessageBody, files: RecordedFile[], markEdited = true): ApiMessage {
    if ('content' in body) message.content = body.content == null ? '' : String(body.content);
    if (Array.isArray(body.embeds)) message.embeds = body.embeds as JsonObject[];
    if (Array.isArray(body.components)) message.components = body.components as JsonObject[];
    if (typeof body.flags === 'number') {
      message.flags =
        (message.flags & ~SETTABLE_FLAGS & ~LOADING) |
        (body.flags & SETTABLE_FLAGS) |
        (message.flags & EPHEMERAL);
    } else {
      message.flags &= ~LOADING;
    }
    message.attachments = this.#resolveAttachments(message, body.attachments, files);
    if ('content' in body || 'allowed_mentions' in body) {
      const allowed = body.allowed_mentions;
      const ids = parseMentions(message.content).filter((id) => mentionAllowed(allowed, id));
      const replied = message.referenced_message?.author.id;
      if (replied !== undefined && (allowed === undefined || allowed.replied_user === true))
        ids.push(replied);
      message.mentions = this.#mentionObjects(message.guild_id, new Set(ids));
      const parse = allowed?.parse;
      message.mention_everyone =
        /@(everyone|here)/.test(message.content) &&
        (allowed === undefined || (Array.isArray(parse) && parse.includes('everyone')));
    }
    if (markEdited) message.edited_timestamp = new Date().toISOString();
    return message;
  }

  /** Stores a file (served by the emulator's CDN route) and returns its attachment object. */
  storeAttachment(channelId: string, input: AttachmentInput): ApiAttachment {
    const data = typeof input.data === 'string' ? Buffer.from(input.data) : input.data;
    const file: RecordedFile = {
      field: 'files',
      name: input.name,
      contentType: input.contentType ?? guessType(input.name),
      data,
    };
    return this.#storeFile(channelId, file, input.description);
  }

  /** A copy as seen by a session lacking the MessageContent intent. */
  static withoutContent(message: ApiMessage): ApiMessage {
    return { ...message, content: '', embeds: [], attachments: [], components: [] };
  }

  #base(id: string, channelId: string, author: ApiUser, content: string): ApiMessage {
    const world = this.#world;
    const guildId = world.guildIdOf(channelId);
    const message: ApiMessage = {
      id,
      type: MessageType.Default,
      channel_id: channelId,
      author,
      content,
      timestamp: World.timestampOf(id),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      embeds: [],
      components: [],
      pinned: false,
      flags: 0,
    };
    if (guildId !== undefined) {
      message.guild_id = guildId;
      if (world.guild(guildId).members.has(author.id))
        message.member = world.memberPayload(guildId, author.id, { user: false });
    }
    return message;
  }

  #attachReference(message: ApiMessage, targetId: string): ApiMessage {
    const target = this.#world.message(targetId);
    message.type = MessageType.Reply;
    message.message_reference = { type: 0, message_id: target.id, channel_id: target.channel_id };
    if (target.guild_id !== undefined) message.message_reference.guild_id = target.guild_id;
    const { referenced_message: _nested, ...referenced } = target;
    message.referenced_message = referenced;
    return target;
  }

  #mentionObjects(guildId: string | undefined, ids: Set<string>): ApiMessage['mentions'] {
    const world = this.#world;
    return [...ids].flatMap((id) => {
      const user = world.users.get(id);
      if (!user) return [];
      const inGuild = guildId !== undefined && world.guild(guildId).members.has(id);
      return [inGuild ? { ...user, member: world.memberPayload(guildId, id, { user: false }) } : { ...user }];
    });
  }

  #resolveAttachments(message: ApiMessage, spec: unknown, files: RecordedFile[]): ApiAttachment[] {
    if (!Array.isArray(spec)) {
      return [...message.attachments, ...files.map((file) => this.#storeFile(message.channel_id, file))];
    }
    return (spec as AttachmentBody[]).map((entry) => {
      const id = String(entry.id);
      const existing = message.attachments.find((a) => a.id === id);
      if (existing) return existing;
      const file = files.find((f) => f.field === `files[${id}]`);
      if (!file) throw invalidBody(`attachments: unknown attachment id ${id}`);
      const description = typeof entry.description === 'string' ? entry.description : undefined;
      const filename = typeof entry.filename === 'string' ? entry.filename : file.name;
      return this.#storeFile(message.channel_id, { ...file, name: filename }, description);
    });
  }

  #storeFile(channelId: string, file: RecordedFile, description?: string): ApiAttachment {
    const id = snowflake();
    const url = `${this.#cdnBase()}/attachments/${channelId}/${id}/${encodeURIComponent(file.name)}`;
    this.#world.files.set(id, file);
    const attachment: ApiAttachment = {
      id,
      filename: file.name,
      size: file.data.length,
      url,
      proxy_url: url,
      content_type: file.contentType,
    };
    if (description !== undefined) attachment.description = description;
    return attachment;
  }
}

export function parseMentions(content: string): string[] {
  return [...new Set([...content.matchAll(MENTION)].map((m) => m[1] as string))];
}

function mentionAllowed(allowed: AllowedMentionsBody | undefined, userId: string): boolean {
  if (allowed === undefined) return true;
  if (Array.isArray(allowed.parse) && allowed.parse.includes('users')) return true;
  return Array.isArray(allowed.users) && allowed.users.includes(userId);
}

function guessType(name: string): string {
  if (name.endsWith('.json')) return 'application/json';
  if (name.endsWith('.txt') || name.endsWith('.md')) return 'text/plain';
  if (name.endsWith('.png')) return 'image/png';
  return 'application/octet-stream';
}

import { randomBytes } from 'node:crypto';
import type { AttachmentInput } from './messages.js';
import { snowflake } from './snowflake.js';
import type {
  ApiAttachment,
  ApiCommand,
  ApiCommandData,
  ApiInteraction,
  ApiInteractionOption,
  ApiMessage,
  ApiResolved,
  CommandOptionBody,
} from './types.js';
import type { World } from './world.js';

/** Application command option types (Discord's ApplicationCommandOptionType). */
export const OptionType = {
  Subcommand: 1,
  SubcommandGroup: 2,
  String: 3,
  Integer: 4,
  Boolean: 5,
  User: 6,
  Channel: 7,
  Role: 8,
  Mentionable: 9,
  Number: 10,
  Attachment: 11,
} as const;

/** An option value with an explicit type; plain values are typed from the registered command. */
export type TypedOptionValue =
  | { type: 'string'; value: string }
  | { type: 'integer' | 'number'; value: number }
  | { type: 'boolean'; value: boolean }
  | { type: 'user' | 'channel' | 'role' | 'mentionable'; value: string }
  | { type: 'attachment'; value: AttachmentInput };

export type CommandOptionValue = string | number | boolean | TypedOptionValue;

/** Shorthands for typed option values: `opt.user(id)`, `opt.attachment({ name, data })`, ... */
export const opt = {
  string: (value: string): TypedOptionValue => ({ type: 'string', value }),
  integer: (value: number): TypedOptionValue => ({ type: 'integer', value }),
  number: (value: number): TypedOptionValue => ({ type: 'number', value }),
  boolean: (value: boolean): TypedOptionValue => ({ type: 'boolean', value }),
  user: (id: string): TypedOptionValue => ({ type: 'user', value: id }),
  channel: (id: string): TypedOptionValue => ({ type: 'channel', value: id }),
  role: (id: string): TypedOptionValue => ({ type: 'role', value: id }),
  mentionable: (id: string): TypedOptionValue => ({ type: 'mentionable', value: id }),
  attachment: (file: AttachmentInput): TypedOptionValue => ({ type: 'attachment', value: file }),
};

const TYPE_BY_NAME: Record<TypedOptionValue['type'], number> = {
  string: OptionType.String,
  integer: OptionType.Integer,
  boolean: OptionType.Boolean,
  user: OptionType.User,
  channel: OptionType.Channel,
  role: OptionType.Role,
  mentionable: OptionType.Mentionable,
  number: OptionType.Number,
  attachment: OptionType.Attachment,
};

export interface CommandInvocation {
  /** Optional consistency check: must be the channel's guild. */
  guildId?: string;
  channelId: string;
  userId: string;
  name: string;
  subcommandGroup?: string;
  subcommand?: string;
  options?: Record<string, CommandOptionValue>;
  locale?: string;
}

export interface ButtonClick {
  /** The message carrying the button (object or id). */
  message: ApiMessage | string;
  customId: string;
  userId: string;
  /** Component type (2 = button, the default; 3 = string select, ...). */
  componentType?: number;
  /** Selected values for select menus. */
  values?: string[];
  locale?: string;
}

export type StoreAttachment = (channelId: string, file: AttachmentInput) => ApiAttachment;

/** Common interaction envelope (everything but `data`/`message`) for a guild channel. */
export function interactionEnvelope(
  world: World,
  type: number,
  channelId: string,
  userId: string,
  locale?: string,
): ApiInteraction {
  const channel = world.channel(channelId);
  const guildId = channel.guild_id;
  const common = {
    id: snowflake(),
    application_id: world.applicationId,
    type,
    token: `aW50ZXJhY3Rpb246${randomBytes(48).toString('base64url')}`,
    version: 1,
    channel_id: channel.id,
    channel: { ...channel },
    locale: locale ?? 'en-US',
    entitlements: [],
    attachment_size_limit: 10_485_760,
  };
  if (guildId === undefined) {
    return {
      ...common,
      user: world.user(userId),
      app_permissions: '0',
      authorizing_integration_owners: { '1': userId },
      context: 1,
    };
  }
  return {
    ...common,
    guild_id: guildId,
    guild: { id: guildId, locale: 'en-US', features: [] },
    guild_locale: 'en-US',
    member: world.memberPayload(guildId, userId, { permissions: true }),
    app_permissions: world.permissionsOf(guildId, world.botUser.id),
    authorizing_integration_owners: { '0': guildId },
    context: 0,
  };
}

/** Builds `data` of a chat-input command interaction, typing options from the registered schema. */
export function commandData(
  world: World,
  invocation: CommandInvocation,
  guildId: string | undefined,
  storeAttachment: StoreAttachment,
): ApiCommandData {
  const command = findCommand(world, invocation.name, guildId);
  const child = (options: CommandOptionBody[] | undefined, name: string | undefined) => {
    if (name === undefined) return options;
    const found = options?.find((o) => o.name === name);
    return found ? (asOptions(found.options) ?? []) : undefined;
  };
  const schema = command
    ? child(child(command.options, invocation.subcommandGroup), invocation.subcommand)
    : undefined;
  if (command && !schema) {
    const path = [invocation.subcommandGroup, invocation.subcommand].filter((p) => p !== undefined).join(' ');
    throw new Error(`/${invocation.name} has no subcommand "${path}" in its registered schema`);
  }
  const resolver = new OptionResolver(world, invocation.channelId, guildId, storeAttachment);
  const leaf = Object.entries(invocation.options ?? {}).map(([name, raw]) => {
    const known = schema?.find((o) => o.name === name);
    if (command && !known)
      throw new Error(`/${invocation.name} has no option "${name}" in its registered schema`);
    return resolver.option(name, raw, known);
  });
  let options: ApiInteractionOption[] = leaf;
  if (invocation.subcommand !== undefined) {
    options = [{ name: invocation.subcommand, type: OptionType.Subcommand, options: leaf }];
    if (invocation.subcommandGroup !== undefined) {
      options = [{ name: invocation.subcommandGroup, type: OptionType.SubcommandGroup, options }];
    }
  }
  const data: ApiCommandData = { id: command?.id ?? snowflake(), name: invocation.name, type: 1, options };
  if (command?.guild_id !== undefined) data.guild_id = command.guild_id;
  if (Object.keys(resolver.resolved).length > 0) data.resolved = resolver.resolved;
  return data;
}

function findCommand(world: World, name: string, guildId: string | undefined): ApiCommand | undefined {
  const scopes = guildId === undefined ? ['global'] : [guildId, 'global'];
  for (const scope of scopes) {
    const found = world.commands.get(scope)?.find((c) => c.name === name && c.type === 1);
    if (found) return found;
  }
  return undefined;
}

function asOptions(value: unknown): CommandOptionBody[] | undefined {
  return Array.isArray(value) ? (value as CommandOptionBody[]) : undefined;
}

function inferType(raw: string | number | boolean): number {
  if (typeof raw === 'boolean') return OptionType.Boolean;
  if (typeof raw === 'number') return Number.isInteger(raw) ? OptionType.Integer : OptionType.Number;
  return OptionType.String;
}

/** Turns option values into wire options and collects `resolved` users/members/roles/channels/attachments. */
class OptionResolver {
  readonly resolved: ApiResolved = {};
  readonly #world: World;
  readonly #channelId: string;
  readonly #guildId: string | undefined;
  readonly #storeAttachment: StoreAttachment;

  constructor(
    world: World,
    channelId: string,
    guildId: string | undefined,
    storeAttachment: StoreAttachment,
  ) {
    this.#world = world;
    this.#channelId = channelId;
    this.#guildId = guildId;
    this.#storeAttachment = storeAttachment;
  }

  option(name: string, raw: CommandOptionValue, schema: CommandOptionBody | undefined): ApiInteractionOption {
    const world = this.#world;
    const guildId = this.#guildId;
    const resolved = this.resolved;
    if (typeof raw === 'object' && raw.type === 'attachment') {
      const attachment = this.#storeAttachment(this.#channelId, raw.value);
      resolved.attachments = { ...resolved.attachments, [attachment.id]: attachment };
      return { name, type: OptionType.Attachment, value: attachment.id };
    }
    const value = typeof raw === 'object' ? raw.value : raw;
    const type = typeof raw === 'object' ? TYPE_BY_NAME[raw.type] : Number(schema?.type ?? inferType(raw));
    const id = String(value);
    if (type === OptionType.User || (type === OptionType.Mentionable && world.users.has(id))) {
      resolved.users = { ...resolved.users, [id]: world.user(id) };
      if (guildId !== undefined && world.guild(guildId).members.has(id)) {
        const member = world.memberPayload(guildId, id, { user: false, permissions: true });
        resolved.members = { ...resolved.members, [id]: member };
      }
    } else if (type === OptionType.Role || type === OptionType.Mentionable) {
      const role = guildId === undefined ? undefined : world.guild(guildId).roles.find((r) => r.id === id);
      if (role) resolved.roles = { ...resolved.roles, [id]: role };
    } else if (type === OptionType.Channel) {
      const channel = world.channel(id);
      const partial = {
        id,
        type: channel.type,
        name: channel.name,
        parent_id: channel.parent_id ?? null,
        permissions: '0',
      };
      resolved.channels = { ...resolved.channels, [id]: partial };
    }
    return { name, type, value };
  }
}

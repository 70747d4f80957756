import type { ChangeNotifier } from './notifier.js';
import type { ApiAttachment, ApiChannel, ApiCommand, ApiMessage, ApiUser, RecordedFile } from './types.js';
import type { World } from './world.js';

export const DEFAULT_TIMEOUT_MS = 5_000;

/** What tests read of the emulated world: the bot's messages, channels, files, commands, members. */
export class WorldView {
  protected readonly world: World;
  protected readonly notifier: ChangeNotifier;

  constructor(world: World, notifier: ChangeNotifier) {
    this.world = world;
    this.notifier = notifier;
  }

  get applicationId(): string {
    return this.world.applicationId;
  }

  get botUser(): ApiUser {
    return this.world.botUser;
  }

  /** Every message the bot created (channel sends, interaction replies and followups, incl. ephemeral), oldest first. */
  sentMessages(channelId?: string): ApiMessage[] {
    const botId = this.world.botUser.id;
    return [...this.world.messages.values()].filter(
      (m) => m.author.id === botId && (channelId === undefined || m.channel_id === channelId),
    );
  }

  /** Resolves with the first bot message (already sent or future) matching `predicate`. */
  waitForMessage(predicate: (m: ApiMessage) => boolean, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<ApiMessage> {
    return this.notifier.waitFor(
      () => this.sentMessages().find(predicate),
      timeoutMs,
      'a matching bot message',
    );
  }

  /** Channel history (all authors, ephemeral excluded), oldest first. */
  channelMessages(channelId: string): ApiMessage[] {
    return this.world.messagesIn(channelId);
  }

  message(id: string): ApiMessage | undefined {
    return this.world.messages.get(id);
  }

  channel(id: string): ApiChannel | undefined {
    return this.world.channels.get(id);
  }

  /** Bytes of an attachment (by object or id). */
  attachment(attachment: ApiAttachment | string): RecordedFile | undefined {
    return this.world.files.get(typeof attachment === 'string' ? attachment : attachment.id);
  }

  /** Application commands registered over REST (global by default, or for a guild). */
  commands(guildId?: string): ApiCommand[] {
    return this.world.commands.get(guildId ?? 'global') ?? [];
  }

  member(guildId: string, userId: string): { nick: string | null; roles: string[] } | undefined {
    return this.world.guilds.get(guildId)?.members.get(userId);
  }
}

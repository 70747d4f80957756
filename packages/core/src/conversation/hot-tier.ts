import type { ConversationStore } from '../ports/conversation-store.js';
import { type ConversationMessage, toConversationMessage } from './message-view.js';

const MAX_CHANNELS = 10_000;

/**
 * The hot tier: the last N messages of each channel, kept in process. `observe` and `recordReply`
 * push new messages; a channel not seen yet (or after a restart) is loaded once from the store.
 */
export class HotTier {
  readonly #size: number;
  readonly #channels = new Map<string, ConversationMessage[]>();
  readonly #loading = new Map<string, Promise<ConversationMessage[]>>();

  constructor(size: number) {
    this.#size = size;
  }

  #key(guildId: string, channelId: string): string {
    return `${guildId}\u0000${channelId}`;
  }

  push(message: ConversationMessage): void {
    if (this.#size === 0) return;
    const k = this.#key(message.guildId, message.channelId);
    const list = this.#channels.get(k);
    if (!list) return; // loaded lazily from the store on first read, which will include it
    const same = list.findIndex((m) => m.messageId === message.messageId);
    if (same >= 0) {
      // an edit: the newer content replaces the cached one
      if (message.edited) list[same] = message;
      return;
    }
    list.push(message);
    list.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    if (list.length > this.#size) list.splice(0, list.length - this.#size);
  }

  /** Last N messages of a channel, oldest first. Served from memory after the first read. */
  async recent(
    store: ConversationStore,
    guildId: string,
    channelId: string,
  ): Promise<readonly ConversationMessage[]> {
    if (this.#size === 0) return [];
    const k = this.#key(guildId, channelId);
    const cached = this.#channels.get(k);
    if (cached) {
      // refresh recency for LRU eviction
      this.#channels.delete(k);
      this.#channels.set(k, cached);
      return cached;
    }
    let loading = this.#loading.get(k);
    if (!loading) {
      loading = store
        .channelHistory(guildId, channelId, { limit: this.#size })
        .then((rows) => rows.map(toConversationMessage))
        .finally(() => this.#loading.delete(k));
      this.#loading.set(k, loading);
    }
    const list = [...(await loading)];
    if (!this.#channels.has(k)) {
      this.#channels.set(k, list);
      if (this.#channels.size > MAX_CHANNELS) {
        const oldest = this.#channels.keys().next();
        if (!oldest.done) this.#channels.delete(oldest.value);
      }
    }
    return this.#channels.get(k) ?? list;
  }

  /** Drops a channel's cached messages when they hold this one (a deletion); reloaded on next read. */
  forgetMessage(guildId: string, channelId: string, messageId: string): void {
    const k = this.#key(guildId, channelId);
    if (this.#channels.get(k)?.some((m) => m.messageId === messageId)) this.#channels.delete(k);
  }

  /** Drops everything of a user (purge) — channels are reloaded from the store on next read. */
  forgetUser(guildId: string, userId: string): void {
    for (const [k, list] of this.#channels)
      if (k.startsWith(`${guildId}\u0000`) && list.some((m) => m.authorId === userId))
        this.#channels.delete(k);
  }
}

import type { StoredMessage } from '../../model/message.js';
import type { ActiveMode } from '../../ports/active-mode-store.js';
import type {
  ChannelStats,
  MessageListQuery,
  MessagePosition,
  MessageTextHit,
} from '../../ports/conversation-store.js';
import { ConversationRolesBase } from '../../ports/port-bases.js';
import { indexTerms } from '../../text/analyze.js';
import { searchBm25 } from '../../text/bm25.js';
import { chronological } from './in-memory-queue.js';
import { enter, key, type MemoryState } from './state.js';

/** True when the row sits strictly after the position in (createdAt, messageId) order. */
const isAfter = (m: StoredMessage, p: MessagePosition) =>
  m.createdAt.getTime() > p.createdAt.getTime() ||
  (m.createdAt.getTime() === p.createdAt.getTime() && m.messageId > p.messageId);

type ModeKey = { readonly instanceId: string; readonly guildId: string; readonly channelId: string };
const modeKey = (m: ModeKey) => key(m.instanceId, m.guildId, m.channelId);

const termsCache = new WeakMap<StoredMessage, readonly string[]>();
function termsOf(m: StoredMessage): readonly string[] {
  let t = termsCache.get(m);
  if (!t) {
    t = m.rawStored ? indexTerms(m.content) : [];
    termsCache.set(m, t);
  }
  return t;
}

export class InMemoryConversationStore extends ConversationRolesBase {
  readonly #state: MemoryState;

  constructor(state: MemoryState) {
    super();
    this.#state = state;
  }

  #rows(pred: (m: StoredMessage) => boolean): StoredMessage[] {
    const out: StoredMessage[] = [];
    for (const m of this.#state.messages.values()) if (pred(m)) out.push(m);
    return out.sort(chronological);
  }

  override async channelHistory(
    guildId: string,
    channelId: string,
    options: { readonly limit: number; readonly beforeMessageId?: string; readonly afterMessageId?: string },
  ): Promise<StoredMessage[]> {
    await enter(this.#state);
    let rows = this.#rows((m) => m.guildId === guildId && m.channelId === channelId);
    if (options.beforeMessageId !== undefined) {
      const idx = rows.findIndex((m) => m.messageId === options.beforeMessageId);
      if (idx >= 0) rows = rows.slice(0, idx);
    }
    if (options.afterMessageId !== undefined) {
      const idx = rows.findIndex((m) => m.messageId === options.afterMessageId);
      return idx < 0 ? [] : rows.slice(idx + 1, idx + 1 + options.limit);
    }
    return rows.slice(Math.max(0, rows.length - options.limit));
  }

  override async authorHistory(guildId: string, authorId: string, limit: number): Promise<StoredMessage[]> {
    await enter(this.#state);
    const rows = this.#rows((m) => m.guildId === guildId && m.authorId === authorId);
    return rows.slice(Math.max(0, rows.length - limit));
  }

  override async channelStats(guildId: string, channelId: string): Promise<ChannelStats> {
    await enter(this.#state);
    const rows = this.#rows((m) => m.guildId === guildId && m.channelId === channelId);
    return {
      count: rows.length,
      firstAt: rows[0]?.createdAt ?? null,
      lastAt: rows[rows.length - 1]?.createdAt ?? null,
      botMessages: rows.filter((m) => m.authorIsBot || m.kind === 'reply').length,
      uniqueAuthors: new Set(rows.map((m) => m.authorId)).size,
    };
  }

  override async searchText(
    guildId: string,
    terms: readonly string[],
    limit: number,
  ): Promise<MessageTextHit[]> {
    await enter(this.#state);
    if (terms.length === 0) return [];
    const rows = this.#rows((m) => m.guildId === guildId && m.rawStored && m.kind !== 'session');
    const byId = new Map(rows.map((m) => [m.messageId, m]));
    const docs = rows.map((m) => ({ id: m.messageId, terms: termsOf(m) }));
    const { hits, fullMatchScore } = searchBm25(docs, docs, terms, limit);
    return hits.map((h) => ({ message: byId.get(h.id) as StoredMessage, score: h.score, fullMatchScore }));
  }

  override async getMessages(guildId: string, messageIds: readonly string[]): Promise<StoredMessage[]> {
    await enter(this.#state);
    const out: StoredMessage[] = [];
    for (const id of messageIds) {
      const m = this.#state.messages.get(key(guildId, id));
      if (m) out.push(m);
    }
    return out;
  }

  override async listMessages(guildId: string, query: MessageListQuery): Promise<StoredMessage[]> {
    await enter(this.#state);
    const after = query.after;
    const before = query.createdBefore?.getTime();
    const rows = this.#rows(
      (m) =>
        m.guildId === guildId &&
        (query.channelId === undefined || m.channelId === query.channelId) &&
        (query.authorId === undefined || m.authorId === query.authorId) &&
        (before === undefined || m.createdAt.getTime() < before) &&
        (after === undefined || isAfter(m, after)),
    );
    return rows.slice(0, Math.max(0, Math.floor(query.limit)));
  }

  override async channelCounts(guildId: string): Promise<{ channelId: string; count: number }[]> {
    await enter(this.#state);
    const counts = new Map<string, number>();
    for (const m of this.#state.messages.values())
      if (m.guildId === guildId) counts.set(m.channelId, (counts.get(m.channelId) ?? 0) + 1);
    return [...counts].map(([channelId, count]) => ({ channelId, count }));
  }

  override async trimChannel(guildId: string, channelId: string, keepLatest: number): Promise<number> {
    await enter(this.#state);
    const rows = this.#rows((m) => m.guildId === guildId && m.channelId === channelId);
    const doomed = rows.slice(0, Math.max(0, rows.length - keepLatest));
    for (const m of doomed) this.#deleteMessage(guildId, m.messageId);
    return doomed.length;
  }

  override async deleteMessages(guildId: string, messageIds: readonly string[]): Promise<number> {
    await enter(this.#state);
    let n = 0;
    for (const id of new Set(messageIds)) {
      if (!this.#state.messages.has(key(guildId, id))) continue;
      this.#deleteMessage(guildId, id);
      n++;
    }
    return n;
  }

  #deleteMessage(guildId: string, messageId: string): void {
    this.#state.messages.delete(key(guildId, messageId));
    this.#state.vectors.delete(key(guildId, 'message', messageId));
  }

  override async tryClaim(input: {
    readonly guildId: string;
    readonly channelId: string;
    readonly messageId: string;
    readonly owner: string;
    readonly now: Date;
    readonly ttlMs: number;
  }): Promise<boolean> {
    await enter(this.#state);
    const k = key(input.guildId, input.channelId, input.messageId);
    const current = this.#state.claims.get(k);
    if (current && current.owner !== input.owner && current.until > input.now.getTime()) return false;
    this.#state.claims.set(k, { owner: input.owner, until: input.now.getTime() + input.ttlMs });
    return true;
  }

  override async releaseClaim(input: {
    readonly guildId: string;
    readonly channelId: string;
    readonly messageId: string;
    readonly owner: string;
  }): Promise<boolean> {
    await enter(this.#state);
    const k = key(input.guildId, input.channelId, input.messageId);
    if (this.#state.claims.get(k)?.owner !== input.owner) return false;
    return this.#state.claims.delete(k);
  }

  override async upsertMode(mode: ActiveMode): Promise<void> {
    await enter(this.#state);
    this.#state.modes.set(modeKey(mode), mode);
  }

  override async touchMode(k: ModeKey, at: Date): Promise<boolean> {
    await enter(this.#state);
    const current = this.#state.modes.get(modeKey(k));
    if (!current) return false;
    this.#state.modes.set(modeKey(k), { ...current, lastActiveAt: at });
    return true;
  }

  override async removeMode(k: ModeKey): Promise<boolean> {
    await enter(this.#state);
    return this.#state.modes.delete(modeKey(k));
  }

  override async listModes(options: {
    readonly activeSince: Date;
    readonly instanceId?: string;
  }): Promise<ActiveMode[]> {
    await enter(this.#state);
    return [...this.#state.modes.values()]
      .filter((m) => m.lastActiveAt.getTime() >= options.activeSince.getTime())
      .filter((m) => options.instanceId === undefined || m.instanceId === options.instanceId)
      .sort((a, b) => b.lastActiveAt.getTime() - a.lastActiveAt.getTime());
  }
}

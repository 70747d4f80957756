import type { StoredMessage } from '@permafrost/core';
import type {
  ActiveMode,
  ChannelStats,
  MessageListQuery,
  MessageTextHit,
  MessageWindow,
  WindowAnchor,
} from '@permafrost/core/store';
import { ConversationRolesBase } from '@permafrost/core/store';
import type { Document } from 'mongodb';
import { corpusStats, corpusStatsTtl, findMatching, rankWithStats, termList } from './keyword-ranking.js';
import { readWindows } from './mongo-channel-windows.js';
import type { MongoContext } from './mongo-context.js';
import type { MessageDoc } from './mongo-conversation-docs.js';
import { requireIds, requireString } from './mongo-keys.js';
import { beyond, CHRONOLOGICAL, messageKey, REVERSE_CHRONOLOGICAL } from './mongo-message-mapping.js';
import { channelCounts, messagePage } from './mongo-message-pages.js';
import { MongoPresence } from './mongo-presence.js';
import { deleteMessages, withQueueState } from './mongo-queue-state.js';
import { raw } from './raw-doc.js';

type Row = Pick<MessageDoc, '_id' | 'guildId' | 'messageId' | 'channelId' | 'subjectKey' | 'createdAt'>;
const ROW = { _id: 1, guildId: 1, messageId: 1, channelId: 1, subjectKey: 1, createdAt: 1 } as const;

export class MongoConversationStore extends ConversationRolesBase {
  readonly #ctx: MongoContext;
  readonly #presence: MongoPresence;

  constructor(ctx: MongoContext) {
    super();
    this.#ctx = ctx;
    this.#presence = new MongoPresence(ctx.detached());
  }

  /**
   * The latest `limit` messages of a channel (before `beforeMessageId` when it is in the
   * channel), or with `afterMessageId` the first `limit` after it (none when it is unknown).
   */
  override async channelHistory(
    guildId: string,
    channelId: string,
    options: { readonly limit: number; readonly beforeMessageId?: string; readonly afterMessageId?: string },
  ): Promise<StoredMessage[]> {
    await this.#ctx.enter();
    const g = requireString(guildId, 'guildId');
    const channel = requireString(channelId, 'channelId');
    const filter: Document = { guildId: { $eq: g }, channelId: { $eq: channel } };
    const marks = [options.beforeMessageId, options.afterMessageId].map((id, i) =>
      id === undefined
        ? null
        : messageKey(g, requireString(id, i === 0 ? 'beforeMessageId' : 'afterMessageId')),
    );
    const found = await this.#ctx.readMany(
      this.#ctx.c.messages,
      marks.filter((k): k is string => k !== null),
    );
    const [before, after] = marks.map((k) => {
      const m = k === null ? undefined : found.get(k);
      return m && m.channelId === channel ? m : undefined;
    });
    const bounds: Document[] = [];
    if (before) bounds.push(beyond('$lt', before));
    if (options.afterMessageId === undefined)
      return this.#latest(bounds.length > 0 ? { ...filter, $and: bounds } : filter, options.limit);
    if (!after || options.limit <= 0) return [];
    bounds.push(beyond('$gt', after));
    const docs = await this.#ctx.c.messages
      .find(
        { ...filter, $and: bounds },
        { sort: CHRONOLOGICAL, limit: Math.floor(options.limit), ...this.#ctx.readOpts() },
      )
      .toArray();
    return withQueueState(this.#ctx, docs as MessageDoc[]);
  }

  override async channelWindows(
    guildId: string,
    anchors: readonly WindowAnchor[],
    window: number,
  ): Promise<MessageWindow[]> {
    await this.#ctx.enter();
    return readWindows(this.#ctx, guildId, anchors, window);
  }

  override async authorHistory(guildId: string, authorId: string, limit: number): Promise<StoredMessage[]> {
    await this.#ctx.enter();
    return this.#latest(
      {
        guildId: { $eq: requireString(guildId, 'guildId') },
        authorId: { $eq: requireString(authorId, 'authorId') },
      },
      limit,
    );
  }

  async #latest(filter: Document, limit: number): Promise<StoredMessage[]> {
    if (limit <= 0) return [];
    const docs = await this.#ctx.c.messages
      .find(filter, { sort: REVERSE_CHRONOLOGICAL, limit: Math.floor(limit), ...this.#ctx.readOpts() })
      .toArray();
    return withQueueState(this.#ctx, docs.reverse() as MessageDoc[]);
  }

  override async channelStats(guildId: string, channelId: string): Promise<ChannelStats> {
    await this.#ctx.enter();
    const where = {
      guildId: { $eq: requireString(guildId, 'guildId') },
      channelId: { $eq: requireString(channelId, 'channelId') },
    };
    const messages = this.#ctx.c.messages;
    const o = this.#ctx.opts();
    const [count, bots, first, last, authors] = await this.#ctx.all(
      () => messages.countDocuments(where, o),
      () => messages.countDocuments({ ...where, $or: [{ authorIsBot: true }, { kind: 'reply' }] }, o),
      () => messages.findOne(where, { sort: CHRONOLOGICAL, projection: { createdAt: 1 }, ...o }),
      () => messages.findOne(where, { sort: REVERSE_CHRONOLOGICAL, projection: { createdAt: 1 }, ...o }),
      () => messages.distinct('authorId', where, o),
    );
    return {
      count,
      firstAt: first?.createdAt ?? null,
      lastAt: last?.createdAt ?? null,
      botMessages: bots,
      uniqueAuthors: authors.length,
    };
  }

  override async searchText(
    guildId: string,
    terms: readonly string[],
    limit: number,
  ): Promise<MessageTextHit[]> {
    await this.#ctx.enter();
    const list = termList(terms);
    if (list.length === 0 || limit <= 0) return [];
    const corpus = {
      guildId: { $eq: requireString(guildId, 'guildId') },
      rawStored: true,
      kind: { $ne: 'session' },
    };
    const messages = raw(this.#ctx.c.messages);
    const [matching, stats] = await this.#ctx.all(
      () => findMatching<MessageDoc>(this.#ctx, messages, corpus, list),
      () =>
        this.#ctx.lagging('messages', `stats|${corpus.guildId.$eq}`, corpusStatsTtl(this.#ctx), () =>
          corpusStats(messages, corpus, this.#ctx.opts()),
        ),
    );
    const byId = new Map(matching.map((m) => [m.messageId, m]));
    const docs = matching.map((m) => ({ id: m.messageId, terms: m.terms }));
    const { hits, fullMatchScore } = rankWithStats(stats, docs, docs, terms, limit);
    const rows = await withQueueState(
      this.#ctx,
      hits.map((h) => byId.get(h.id) as MessageDoc),
    );
    return hits.map((h, i) => ({ message: rows[i] as StoredMessage, score: h.score, fullMatchScore }));
  }

  override async getMessages(guildId: string, messageIds: readonly string[]): Promise<StoredMessage[]> {
    await this.#ctx.enter();
    const g = requireString(guildId, 'guildId');
    const ids = requireIds(messageIds, 'messageId');
    const found = await this.#ctx.readMany(
      this.#ctx.c.messages,
      ids.map((id) => messageKey(g, id)),
    );
    return withQueueState(
      this.#ctx,
      ids.flatMap((id) => {
        const d = found.get(messageKey(g, id));
        return d ? [d] : [];
      }),
    );
  }

  override async listMessages(guildId: string, query: MessageListQuery): Promise<StoredMessage[]> {
    await this.#ctx.enter();
    return messagePage(this.#ctx, guildId, query);
  }

  override async channelCounts(guildId: string): Promise<{ channelId: string; count: number }[]> {
    await this.#ctx.enter();
    return channelCounts(this.#ctx, guildId);
  }

  override async deleteMessages(guildId: string, messageIds: readonly string[]): Promise<number> {
    await this.#ctx.enter();
    const g = requireString(guildId, 'guildId');
    const keys = requireIds(messageIds, 'message id').map((id) => messageKey(g, id));
    if (keys.length === 0) return 0;
    const found = await this.#ctx.readMany(this.#ctx.c.messages, keys);
    const rows = [...found.values()].map((d) => ({
      guildId: d.guildId,
      subjectKey: d.subjectKey,
      messageId: d.messageId,
    }));
    return deleteMessages(this.#ctx, rows);
  }

  override async trimChannel(guildId: string, channelId: string, keepLatest: number): Promise<number> {
    await this.#ctx.enter();
    const rows = await this.#rows({
      guildId: { $eq: requireString(guildId, 'guildId') },
      channelId: { $eq: requireString(channelId, 'channelId') },
    });
    const doomed = rows.slice(0, Math.max(0, rows.length - Math.max(0, keepLatest)));
    return deleteMessages(this.#ctx, doomed);
  }

  async #rows(filter: Document): Promise<Row[]> {
    const docs = await this.#ctx.c.messages
      .find(filter, { sort: CHRONOLOGICAL, projection: ROW, ...this.#ctx.readOpts() })
      .toArray();
    return docs as Row[];
  }

  override tryClaim(input: {
    readonly guildId: string;
    readonly channelId: string;
    readonly messageId: string;
    readonly owner: string;
    readonly now: Date;
    readonly ttlMs: number;
  }): Promise<boolean> {
    return this.#presence.tryClaim(input);
  }

  override releaseClaim(input: {
    readonly guildId: string;
    readonly channelId: string;
    readonly messageId: string;
    readonly owner: string;
  }): Promise<boolean> {
    return this.#presence.releaseClaim(input);
  }

  override upsertMode(mode: ActiveMode): Promise<void> {
    return this.#presence.upsertMode(mode);
  }

  override touchMode(
    key: { readonly instanceId: string; readonly guildId: string; readonly channelId: string },
    at: Date,
  ): Promise<boolean> {
    return this.#presence.touchMode(key, at);
  }

  override removeMode(key: {
    readonly instanceId: string;
    readonly guildId: string;
    readonly channelId: string;
  }): Promise<boolean> {
    return this.#presence.removeMode(key);
  }

  override listModes(options: {
    readonly activeSince: Date;
    readonly instanceId?: string;
  }): Promise<ActiveMode[]> {
    return this.#presence.listModes(options);
  }
}

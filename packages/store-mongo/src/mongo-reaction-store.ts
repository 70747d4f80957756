import type { Reaction, ReactionCount, ReactionRef } from '@permafrost/core';
import { compareReactionRefs, type ReactionListQuery, ReactionStoreBase } from '@permafrost/core/store';
import type { Document } from 'mongodb';
import { DELETE, type GuardedDoc } from './guard-types.js';
import type { MongoContext } from './mongo-context.js';
import { docKey, requireId, requireIds, requireString, validDate } from './mongo-keys.js';

/**
 * The reactions of one message: one entry per (member, emoji). One document per message keeps
 * every read a point read by `_id` (the only indexed lookup on FerretDB) and every change one
 * guarded read-modify-write. Discord allows 20 distinct emoji per message, so a document grows
 * with members who react: about 60 bytes each, far below the 16 MB document limit.
 */
export interface ReactionsDoc extends GuardedDoc {
  guildId: string;
  messageId: string;
  channelId: string;
  r: { u: string; e: string; at: Date }[];
}

type Entry = ReactionsDoc['r'][number];

export const reactionsKey = (guildId: string, messageId: string): string => docKey(guildId, messageId);

const rowsOf = (d: ReactionsDoc): Reaction[] =>
  d.r.map((x) => ({
    guildId: d.guildId,
    channelId: d.channelId,
    messageId: d.messageId,
    userId: x.u,
    emoji: x.e,
    at: x.at,
  }));

/** Removes the entries `drop` selects from a document: the next document, DELETE, or null (nothing to drop). */
export function withoutEntries(
  d: ReactionsDoc | null,
  drop: (x: Entry) => boolean,
): ReactionsDoc | typeof DELETE | null {
  if (!d) return null;
  const rest = d.r.filter((x) => !drop(x));
  if (rest.length === d.r.length) return null;
  return rest.length === 0 ? DELETE : { ...d, r: rest };
}

/** Removes exactly these reactions of a guild (used by the port and by purge); returns how many. */
export async function deleteReactionRefs(
  ctx: MongoContext,
  guildId: string,
  refs: readonly ReactionRef[],
): Promise<number> {
  const byMessage = new Map<string, Set<string>>();
  for (const r of refs) {
    const k = reactionsKey(guildId, requireId(r.messageId, 'messageId'));
    byMessage.set(k, (byMessage.get(k) ?? new Set()).add(`${r.userId}\u0000${r.emoji}`));
  }
  const outcomes = await ctx.guard.mutateMany(ctx.c.reactions, [...byMessage.keys()], (d, k) =>
    withoutEntries(d, (x) => byMessage.get(k)?.has(`${x.u}\u0000${x.e}`) === true),
  );
  return removedBy(outcomes.values());
}

function removedBy(
  outcomes: Iterable<{ before: ReactionsDoc | null; after: ReactionsDoc | null; changed: boolean }>,
): number {
  let n = 0;
  for (const o of outcomes) if (o.changed) n += (o.before?.r.length ?? 0) - (o.after?.r.length ?? 0);
  return n;
}

export class MongoReactionStore extends ReactionStoreBase {
  readonly #ctx: MongoContext;

  constructor(ctx: MongoContext) {
    super();
    this.#ctx = ctx;
  }

  override async addReaction(r: Reaction): Promise<boolean> {
    await this.#ctx.enter();
    const guildId = requireId(r.guildId, 'guildId');
    const messageId = requireId(r.messageId, 'messageId');
    const entry: Entry = {
      u: requireId(r.userId, 'userId'),
      e: requireString(r.emoji, 'emoji'),
      at: validDate(r.at, 'at'),
    };
    const channelId = requireId(r.channelId, 'channelId');
    const outcome = await this.#ctx.guard.mutate(
      this.#ctx.c.reactions,
      reactionsKey(guildId, messageId),
      (d) =>
        d?.r.some((x) => x.u === entry.u && x.e === entry.e)
          ? null
          : {
              ...(d ?? { _id: '', ep: '', guildId, messageId, channelId, r: [] }),
              r: [...(d?.r ?? []), entry],
            },
    );
    return outcome.changed;
  }

  override async removeReaction(guildId: string, ref: ReactionRef): Promise<boolean> {
    await this.#ctx.enter();
    return (await deleteReactionRefs(this.#ctx, requireId(guildId, 'guildId'), [ref])) > 0;
  }

  override async deleteReactions(guildId: string, refs: readonly ReactionRef[]): Promise<number> {
    await this.#ctx.enter();
    return deleteReactionRefs(this.#ctx, requireId(guildId, 'guildId'), refs);
  }

  override async clearReactions(
    guildId: string,
    messageIds: readonly string[],
    options: { readonly emoji?: string } = {},
  ): Promise<number> {
    await this.#ctx.enter();
    const g = requireId(guildId, 'guildId');
    const keys = requireIds(messageIds, 'messageId').map((id) => reactionsKey(g, id));
    const emoji = options.emoji;
    const outcomes = await this.#ctx.guard.mutateMany(this.#ctx.c.reactions, keys, (d) =>
      withoutEntries(d, (x) => emoji === undefined || x.e === emoji),
    );
    return removedBy(outcomes.values());
  }

  override async reactionCounts(
    guildId: string,
    messageIds: readonly string[],
    options: { readonly excludeUserIds?: readonly string[] } = {},
  ): Promise<Map<string, ReactionCount[]>> {
    await this.#ctx.enter();
    const g = requireId(guildId, 'guildId');
    const excluded = new Set(options.excludeUserIds ?? []);
    const docs = await this.#ctx.readMany(
      this.#ctx.c.reactions,
      requireIds(messageIds, 'messageId').map((id) => reactionsKey(g, id)),
    );
    const out = new Map<string, ReactionCount[]>();
    for (const d of docs.values()) {
      const byEmoji = new Map<string, number>();
      for (const x of d.r) if (!excluded.has(x.u)) byEmoji.set(x.e, (byEmoji.get(x.e) ?? 0) + 1);
      if (byEmoji.size > 0)
        out.set(
          d.messageId,
          [...byEmoji].map(([emoji, count]) => ({ emoji, count })),
        );
    }
    return out;
  }

  /**
   * By message ids: point reads. Otherwise the guild's documents (of the member, by the multikey
   * `r.u` index) in messageId order from the `after` message on: every document holds at least
   * one matching row, so `limit + 1` documents hold the first `limit` rows after the cursor.
   */
  override async listReactions(guildId: string, query: ReactionListQuery): Promise<Reaction[]> {
    await this.#ctx.enter();
    const g = requireId(guildId, 'guildId');
    const limit = Math.max(0, Math.floor(query.limit));
    if (limit === 0) return [];
    let docs: ReactionsDoc[];
    if (query.messageIds !== undefined) {
      const keys = requireIds(query.messageIds, 'messageId').map((id) => reactionsKey(g, id));
      docs = [...(await this.#ctx.readMany(this.#ctx.c.reactions, keys)).values()];
    } else {
      const filter: Document = { guildId: { $eq: g } };
      if (query.userId !== undefined) filter['r.u'] = { $eq: requireString(query.userId, 'userId') };
      if (query.after !== undefined)
        filter['messageId'] = { $gte: requireString(query.after.messageId, 'after') };
      docs = (await this.#ctx.c.reactions
        .find(filter, { sort: { messageId: 1 }, limit: limit + 1, ...this.#ctx.readOpts() })
        .toArray()) as ReactionsDoc[];
    }
    const after = query.after;
    return docs
      .flatMap(rowsOf)
      .filter((r) => query.userId === undefined || r.userId === query.userId)
      .filter((r) => after === undefined || compareReactionRefs(r, after) > 0)
      .sort(compareReactionRefs)
      .slice(0, limit);
  }
}

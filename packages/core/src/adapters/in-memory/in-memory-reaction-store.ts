import {
  compareReactionRefs,
  type Reaction,
  type ReactionCount,
  type ReactionRef,
} from '../../model/reaction.js';
import { ReactionStoreBase } from '../../ports/port-bases.js';
import type { ReactionListQuery } from '../../ports/reaction-store.js';
import { enter, key, type MemoryState } from './state.js';

const same = (a: ReactionRef, b: ReactionRef) =>
  a.messageId === b.messageId && a.userId === b.userId && a.emoji === b.emoji;

/** Reactions per message (each message's list replaced on write, so transactions can undo it). */
export class InMemoryReactionStore extends ReactionStoreBase {
  readonly #state: MemoryState;

  constructor(state: MemoryState) {
    super();
    this.#state = state;
  }

  #of(guildId: string, messageId: string): readonly Reaction[] {
    return this.#state.reactions.get(key(guildId, messageId)) ?? [];
  }

  #put(guildId: string, messageId: string, rows: readonly Reaction[]): void {
    if (rows.length === 0) this.#state.reactions.delete(key(guildId, messageId));
    else this.#state.reactions.set(key(guildId, messageId), rows);
  }

  override async addReaction(reaction: Reaction): Promise<boolean> {
    await enter(this.#state);
    const rows = this.#of(reaction.guildId, reaction.messageId);
    if (rows.some((r) => same(r, reaction))) return false;
    this.#put(reaction.guildId, reaction.messageId, [...rows, { ...reaction }]);
    return true;
  }

  override async removeReaction(guildId: string, ref: ReactionRef): Promise<boolean> {
    await enter(this.#state);
    const rows = this.#of(guildId, ref.messageId);
    const rest = rows.filter((r) => !same(r, ref));
    if (rest.length === rows.length) return false;
    this.#put(guildId, ref.messageId, rest);
    return true;
  }

  override async clearReactions(
    guildId: string,
    messageIds: readonly string[],
    options: { readonly emoji?: string } = {},
  ): Promise<number> {
    await enter(this.#state);
    let n = 0;
    for (const messageId of new Set(messageIds)) {
      const rows = this.#of(guildId, messageId);
      const rest = options.emoji === undefined ? [] : rows.filter((r) => r.emoji !== options.emoji);
      n += rows.length - rest.length;
      if (rest.length !== rows.length) this.#put(guildId, messageId, rest);
    }
    return n;
  }

  override async deleteReactions(guildId: string, refs: readonly ReactionRef[]): Promise<number> {
    await enter(this.#state);
    let n = 0;
    for (const ref of refs) {
      const rows = this.#of(guildId, ref.messageId);
      const rest = rows.filter((r) => !same(r, ref));
      n += rows.length - rest.length;
      if (rest.length !== rows.length) this.#put(guildId, ref.messageId, rest);
    }
    return n;
  }

  override async reactionCounts(
    guildId: string,
    messageIds: readonly string[],
    options: { readonly excludeUserIds?: readonly string[] } = {},
  ): Promise<Map<string, ReactionCount[]>> {
    await enter(this.#state);
    const excluded = new Set(options.excludeUserIds ?? []);
    const out = new Map<string, ReactionCount[]>();
    for (const messageId of new Set(messageIds)) {
      const byEmoji = new Map<string, number>();
      for (const r of this.#of(guildId, messageId))
        if (!excluded.has(r.userId)) byEmoji.set(r.emoji, (byEmoji.get(r.emoji) ?? 0) + 1);
      if (byEmoji.size > 0)
        out.set(
          messageId,
          [...byEmoji].map(([emoji, count]) => ({ emoji, count })),
        );
    }
    return out;
  }

  override async listReactions(guildId: string, query: ReactionListQuery): Promise<Reaction[]> {
    await enter(this.#state);
    const rows: Reaction[] = [];
    if (query.messageIds !== undefined) {
      for (const messageId of new Set(query.messageIds)) rows.push(...this.#of(guildId, messageId));
    } else {
      const prefix = key(guildId, '');
      for (const [k, list] of this.#state.reactions.entries()) if (k.startsWith(prefix)) rows.push(...list);
    }
    const after = query.after;
    return rows
      .filter((r) => query.userId === undefined || r.userId === query.userId)
      .filter((r) => after === undefined || compareReactionRefs(r, after) > 0)
      .sort(compareReactionRefs)
      .slice(0, Math.max(0, query.limit))
      .map((r) => ({ ...r }));
  }
}

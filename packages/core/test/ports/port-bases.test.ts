import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Alias } from '../../src/model/graph.js';
import type { StoredMessage } from '../../src/model/message.js';
import {
  compareReactionRefs,
  type Reaction,
  type ReactionCount,
  type ReactionRef,
} from '../../src/model/reaction.js';
import type { AliasStore } from '../../src/ports/alias-store.js';
import type { ConsentStore } from '../../src/ports/consent-store.js';
import type { EnqueueOutcome, IngestQueue } from '../../src/ports/ingest-queue.js';
import {
  AliasStoreBase,
  ConsentStoreBase,
  IngestQueueBase,
  ReactionStoreBase,
} from '../../src/ports/port-bases.js';
import type { ReactionListQuery } from '../../src/ports/reaction-store.js';

/**
 * An alias store written against the first version of the port, before `findMany` was added to
 * it (a real case: see changelog.d/core.alias-find-many.added.md). Because it extends the base, it
 * still compiles and still answers the newer method, through the default.
 */
class FirstVersionAliasStore extends AliasStoreBase {
  readonly #rows: Alias[] = [];
  override async upsert(alias: Alias): Promise<void> {
    this.#rows.push(alias);
  }
  override async find(guildId: string, alias: string, limit: number): Promise<Alias[]> {
    return this.#rows.filter((a) => a.guildId === guildId && a.alias === alias).slice(0, limit);
  }
  override async findByPrefix(guildId: string, prefix: string, limit: number): Promise<Alias[]> {
    return this.#rows.filter((a) => a.guildId === guildId && a.alias.startsWith(prefix)).slice(0, limit);
  }
  override async aliasesOf(guildId: string, userId: string): Promise<Alias[]> {
    return this.#rows.filter((a) => a.guildId === guildId && a.userId === userId);
  }
}

const alias = (name: string, userId: string): Alias => ({
  guildId: 'g',
  alias: name,
  userId,
  source: 'display_name',
  weight: 0.7,
  updatedAt: new Date(0),
});

describe('port bases', () => {
  it('a store written before a port gained a method still satisfies the port and answers it', async () => {
    expectTypeOf<FirstVersionAliasStore>().toMatchTypeOf<AliasStore>();
    const store = new FirstVersionAliasStore();
    await store.upsert(alias('ana', 'u1'));
    await store.upsert(alias('ana', 'u2'));
    await store.upsert(alias('bo', 'u3'));
    const found = await store.findMany('g', ['ana', 'bo', 'cy', 'ana'], 1);
    expect([...found.entries()].map(([k, v]) => [k, v.map((a) => a.userId)])).toEqual([
      ['ana', ['u1']],
      ['bo', ['u3']],
    ]);
  });

  it('derives isOptedOut from optedOutUsers and enqueueMany from enqueue, in order', async () => {
    class Consent extends ConsentStoreBase {
      readonly out = new Set<string>();
      override async setOptOut(_g: string, userId: string, optedOut: boolean): Promise<void> {
        if (optedOut) this.out.add(userId);
        else this.out.delete(userId);
      }
      override async optedOutUsers(): Promise<string[]> {
        return [...this.out];
      }
    }
    const consent: ConsentStore = new Consent();
    await consent.setOptOut('g', 'u1', true, new Date(0));
    expect([await consent.isOptedOut('g', 'u1'), await consent.isOptedOut('g', 'u2')]).toEqual([true, false]);

    const seen: string[] = [];
    abstract class PartialQueue extends IngestQueueBase {
      override async enqueue(message: StoredMessage, maxDepth: number): Promise<EnqueueOutcome> {
        seen.push(message.messageId);
        return seen.length > maxDepth ? 'over_capacity' : 'accepted';
      }
    }
    // Only enqueue is written; the rest stays abstract, which is enough to call the default.
    const queue = Object.create(PartialQueue.prototype) as IngestQueue;
    const rows = ['a', 'b', 'c'].map((messageId) => ({ messageId }) as StoredMessage);
    expect(await queue.enqueueMany(rows, 2)).toEqual(['accepted', 'accepted', 'over_capacity']);
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('derives clearReactions (paging, one emoji) and deleteReactions from the other reaction methods', async () => {
    /** Only the four abstract methods, over a plain array. */
    class Minimal extends ReactionStoreBase {
      rows: Reaction[] = [];
      lists = 0;
      override async addReaction(r: Reaction): Promise<boolean> {
        if (this.rows.some((x) => compareReactionRefs(x, r) === 0)) return false;
        this.rows.push(r);
        return true;
      }
      override async removeReaction(_g: string, ref: ReactionRef): Promise<boolean> {
        const before = this.rows.length;
        this.rows = this.rows.filter((x) => compareReactionRefs(x, ref) !== 0);
        return this.rows.length < before;
      }
      override async reactionCounts(): Promise<Map<string, ReactionCount[]>> {
        return new Map();
      }
      override async listReactions(_g: string, q: ReactionListQuery): Promise<Reaction[]> {
        this.lists++;
        return this.rows
          .filter((r) => !q.messageIds || q.messageIds.includes(r.messageId))
          .filter((r) => !q.after || compareReactionRefs(r, q.after) > 0)
          .sort(compareReactionRefs)
          .slice(0, q.limit);
      }
    }
    const store = new Minimal();
    const at = new Date(0);
    // 1,500 reactions on one message: more than one page of the default's listing.
    for (let i = 0; i < 1500; i++)
      await store.addReaction({
        guildId: 'g',
        channelId: 'c',
        messageId: 'm1',
        userId: `u${String(i).padStart(4, '0')}`,
        emoji: i % 2 === 0 ? 'a' : 'b',
        at,
      });
    await store.addReaction({ guildId: 'g', channelId: 'c', messageId: 'm2', userId: 'u1', emoji: 'a', at });
    expect(await store.clearReactions('g', ['m1'], { emoji: 'a' })).toBe(750);
    expect(store.lists).toBe(2);
    expect(store.rows.filter((r) => r.messageId === 'm1').every((r) => r.emoji === 'b')).toBe(true);
    expect(
      await store.deleteReactions('g', [
        { messageId: 'm2', userId: 'u1', emoji: 'a' },
        { messageId: 'm9', userId: 'u1', emoji: 'a' },
      ]),
    ).toBe(1);
    expect(await store.clearReactions('g', ['m1', 'm2'])).toBe(750);
    expect(store.rows).toEqual([]);
  });
});

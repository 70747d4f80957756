import type { Collection } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { DocGuard } from '../src/doc-guard.js';
import type { TokenDoc } from '../src/version-tokens.js';
import { mongoSelected, scratchDatabase } from './backend-selection.js';

interface Counter {
  _id: string;
  ep: string;
  n: number;
}

type ReadMany = <D extends { _id: string }>(
  coll: Collection<D>,
  ids: readonly string[],
) => Promise<Map<string, D>>;

function host(readMany: ReadMany) {
  return { logger: undefined, wrote: () => undefined, session: () => undefined, opts: () => ({}), readMany };
}

const plainRead: ReadMany = async <D extends { _id: string }>(
  coll: Collection<D>,
  ids: readonly string[],
) => {
  const docs = (await Promise.all(
    ids.map((id) => coll.findOne({ _id: { $eq: id } } as never)),
  )) as (D | null)[];
  return new Map(docs.flatMap((d) => (d ? [[d._id, d] as const] : [])));
};

/** A guard (its own process, as far as locks go) that counts its document reads. */
function countingGuard(tokens: Collection<TokenDoc>) {
  let reads = 0;
  const guard = new DocGuard(
    host((c, ids) => {
      reads++;
      return plainRead(c, ids);
    }),
    tokens,
    60_000,
  );
  return { guard, reads: () => reads };
}

const add = (k: number) => (current: Counter | null) => (current ? { ...current, n: current.n + k } : null);

/** The version-token guard (doc-guard.ts) on a server whose updates need not be atomic. */
describe.runIf(mongoSelected)('mongo DocGuard', () => {
  const mongo = scratchDatabase('pf_doc_guard');

  async function collections(name: string) {
    const db = mongo.client.db(`${mongo.db}_${name}`);
    const coll = db.collection<Counter>('counters');
    await coll.insertOne({ _id: 'c', ep: 'e0', n: 0 });
    return { coll, tokens: db.collection<TokenDoc>('version_tokens') };
  }

  it('reads a document once per guarded update when nothing else writes it', async () => {
    const { coll, tokens } = await collections('once');
    const { guard, reads } = countingGuard(tokens);
    const out = await guard.mutate(coll, 'c', add(1));
    expect(out.after?.n).toBe(1);
    expect(reads()).toBe(1);
    await guard.settled();
    expect((await coll.findOne({ _id: 'c' }))?.n).toBe(1);
  });

  it('does not let a write computed from a version another writer finished land over it', async () => {
    const { coll, tokens } = await collections('stale');
    // Writer A (another process: its own guard and locks) finishes a whole update, token freed,
    // between B's read of version e0 and B's token insert: B then wins the token of a dead version.
    const a = new DocGuard(host(plainRead), tokens, 60_000);
    let first = true;
    const b = new DocGuard(
      host(async (c, ids) => {
        const snapshot = await plainRead(c, ids);
        if (first) {
          first = false;
          await a.mutate(coll, 'c', add(1));
          await a.settled();
        }
        return snapshot;
      }),
      tokens,
      60_000,
    );
    const out = await b.mutate(coll, 'c', add(10));
    expect(out.before?.n).toBe(1);
    expect(out.after?.n).toBe(11);
    await b.settled();
    expect((await coll.findOne({ _id: 'c' }))?.n).toBe(11);
    expect(await tokens.countDocuments()).toBe(0);
  });

  describe('reuseWritten', () => {
    const reuse = { reuseWritten: true } as const;

    it('starts from the version it wrote itself instead of reading the document again', async () => {
      const { coll, tokens } = await collections('reuse');
      const { guard, reads } = countingGuard(tokens);
      await guard.mutate(coll, 'c', add(1), reuse);
      expect(reads()).toBe(1);
      const out = await guard.mutate(coll, 'c', add(2), reuse);
      expect(reads()).toBe(1);
      expect(out.after?.n).toBe(3);
      // Without the option the document is read as before.
      await guard.mutate(coll, 'c', add(4));
      expect(reads()).toBe(2);
      expect((await coll.findOne({ _id: 'c' }))?.n).toBe(7);
    });

    it('retries from a fresh read when another process replaced the version it remembers', async () => {
      const { coll, tokens } = await collections('reuse_stale');
      const mine = new DocGuard(host(plainRead), tokens, 60_000);
      const other = new DocGuard(host(plainRead), tokens, 60_000);
      await mine.mutate(coll, 'c', add(1), reuse);
      await other.mutate(coll, 'c', add(100));
      await other.settled();
      const out = await mine.mutate(coll, 'c', add(10), reuse);
      expect(out.before?.n).toBe(101);
      expect((await coll.findOne({ _id: 'c' }))?.n).toBe(111);
      // "Nothing to change", decided on the remembered version, is checked on a fresh read.
      await other.mutate(coll, 'c', (cur) => (cur ? { ...cur, n: 0 } : null));
      await other.settled();
      const unchanged = await mine.mutate(
        coll,
        'c',
        (cur) => (cur && cur.n > 100 ? null : cur ? { ...cur, n: 42 } : null),
        reuse,
      );
      expect(unchanged.changed).toBe(true);
      expect((await coll.findOne({ _id: 'c' }))?.n).toBe(42);
    });
  });

  describe('known', () => {
    it('starts from documents the caller read, absent ones included; a stale one costs a retry', async () => {
      const { coll, tokens } = await collections('known');
      const { guard, reads } = countingGuard(tokens);
      const stored = (await coll.findOne({ _id: 'c' })) as Counter;
      const create = (current: Counter | null) => current ?? { _id: 'new', ep: '', n: 5 };
      await guard.mutateMany(coll, ['c', 'new'], (cur, id) => (id === 'c' ? add(1)(cur) : create(cur)), {
        known: new Map([
          ['c', stored],
          ['new', null],
        ]),
      });
      expect(reads()).toBe(0);
      expect((await coll.findOne({ _id: 'c' }))?.n).toBe(1);
      expect((await coll.findOne({ _id: 'new' }))?.n).toBe(5);
      // Both are stale now: the write of one and the insert of the other lose, and are retried.
      const out = await guard.mutateMany(
        coll,
        ['c', 'new'],
        (cur, id) =>
          id === 'c' ? add(10)(cur) : cur ? { ...cur, n: cur.n + 1 } : { _id: 'new', ep: '', n: 0 },
        {
          known: new Map([
            ['c', stored],
            ['new', null],
          ]),
        },
      );
      expect(reads()).toBeGreaterThan(0);
      expect(out.get('c')?.after?.n).toBe(11);
      expect((await coll.findOne({ _id: 'new' }))?.n).toBe(6);
    });

    it('takes "nothing to change" decided on a known document as final only when it was read in this operation', async () => {
      const { coll, tokens } = await collections('known_fresh');
      const { guard, reads } = countingGuard(tokens);
      const stored = (await coll.findOne({ _id: 'c' })) as Counter;
      const nothing = () => null;
      await guard.mutate(coll, 'c', nothing, { known: new Map([['c', stored]]) });
      expect(reads()).toBe(1);
      await guard.mutate(coll, 'c', nothing, { known: new Map([['c', stored]]), knownIsFresh: true });
      expect(reads()).toBe(1);
    });
  });
});

import { type LogEvent, MemoryError } from '@permafrost/core';
import { resolveStoreFactory } from '@permafrost/core/internal';
import { G1, makeFact, makeMessage } from '@permafrost/store-conformance';
import { createMongoStore, type MongoMemoryStore } from '@permafrost/store-mongo';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mongoSelected, requireMongoUrl } from './backend-selection.js';

const T = new Date('2026-09-01T00:00:00.000Z');
const after = (ms: number) => new Date(T.getTime() + ms);
/** The store's `_id` encoding of natural keys (white-box: used to simulate crashes). */
const key = (...parts: string[]) => parts.map((p) => `${p.length}:${p}|`).join('');

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return MemoryError.is(e) ? e.code : 'not a MemoryError';
  }
  return 'resolved';
}

describe.runIf(mongoSelected)('mongo store specifics', () => {
  let client: MongoClient | undefined;
  const opened: MongoMemoryStore[] = [];
  const extraClients: MongoClient[] = [];
  let n = 0;
  const dbName = () => `pf_spec_${process.pid}_${Date.now().toString(36)}_${++n}`;

  /** A store on its own connection pool: stands in for another process. */
  async function open(db: string, extra: Partial<Parameters<typeof createMongoStore>[0]> = {}) {
    const c = new MongoClient(requireMongoUrl(), { serverSelectionTimeoutMS: 5_000 });
    extraClients.push(c);
    const store = createMongoStore({ client: c, dbName: db, ...extra });
    await store.setup();
    opened.push(store);
    return store;
  }

  beforeAll(async () => {
    client = new MongoClient(requireMongoUrl(), { serverSelectionTimeoutMS: 5_000 });
    await client.connect();
  });

  afterAll(async () => {
    for (const db of new Set(opened.map((s) => s.dbName))) await client?.db(db).dropDatabase();
    for (const c of extraClients) await c.close();
    await client?.close();
  });

  it('declares capabilities from what the server does, not its version string', async () => {
    const s = await open(dbName());
    expect(s.capabilities).toMatchObject({ multiProcess: true, physicalPurge: false, durable: true });
    expect(s.capabilities.transactions).toBe(s.profile.transactions ? 'atomic' : 'ordered');
    expect(s.capabilities.nativeVectorSearch).toBe(s.profile.vectorSearch);
    // queryPlan 'auto' (the default) follows the server's identity.
    expect(s.profile.queryPlan).toBe(s.profile.ferret ? 'ferretdb' : 'mongodb');
    if (s.profile.ferret) {
      // FerretDB v1: no transactions, no $vectorSearch → ordered writes and in-process vectors.
      expect(s.capabilities).toMatchObject({ transactions: 'ordered', nativeVectorSearch: false });
    }
  });

  it('opens from a storage URL through the registered factory', async () => {
    const db = dbName();
    const url = requireMongoUrl().replace(/\/?(\?.*)?$/, (_m, q: string | undefined) => `/${db}${q ?? ''}`);
    const factory = await resolveStoreFactory('mongodb');
    const store = (await factory(url, {})) as MongoMemoryStore;
    opened.push(store);
    expect(store.name).toBe('mongo');
    expect(store.dbName).toBe(db);
    await store.setup();
    await store.ping();
    await store.close();
  });

  it('sets up idempotently, and another store object on the database sees the data', async () => {
    const db = dbName();
    const a = await open(db);
    await a.setup();
    const f = makeFact({ text: 'durable fact about tea' });
    await a.facts.insert([f]);
    const b = await open(db);
    expect((await b.facts.get(G1, [f.id]))[0]).toEqual(f);
  });

  it("re-analyses stored keyword terms at setup when core's text analysis changed", async () => {
    const db = dbName();
    const a = await open(db);
    const f = makeFact({ text: 'alice collects vintage typewriters' });
    await a.facts.insert([f]);
    // As if written by an older analyzer: other terms and another fingerprint.
    await client
      ?.db(db)
      .collection<{ _id: string }>('facts')
      .updateOne({ _id: key(G1, f.id) }, { $set: { terms: ['stale'] } });
    await client
      ?.db(db)
      .collection<{ _id: string }>('store_meta')
      .updateOne({ _id: 'terms.analyzer' }, { $set: { value: 'old' } });
    expect(await a.facts.searchText({ guildId: G1 }, ['typewrit'], 5)).toEqual([]);
    const b = await open(db);
    expect((await b.facts.searchText({ guildId: G1 }, ['typewrit'], 5)).map((h) => h.fact.id)).toEqual([
      f.id,
    ]);
    expect(await b.facts.searchText({ guildId: G1 }, ['stale'], 5)).toEqual([]);
  });

  it('keeps hostile ids, names and metadata keys as plain data', async () => {
    const s = await open(dbName());
    const guild = '$where';
    const id = '{"$gt": ""}';
    const f = makeFact({ id, guildId: guild, subjectId: 'a.b', text: 'the __proto__ of $regex' });
    const other = makeFact({ guildId: guild, subjectId: '__proto__', text: 'another' });
    await s.facts.insert([f, other]);
    expect((await s.facts.get(guild, [id]))[0]).toEqual(f);
    expect(
      (await s.facts.list({ guildId: guild, subjectIds: ['a.b'], limit: 10 })).items.map((x) => x.id),
    ).toEqual([id]);
    expect(await s.facts.get(guild, ['{"$gt":""}', '.*'])).toEqual([]);
    await s.aliases.upsert({
      guildId: guild,
      alias: '$ne',
      userId: '__proto__',
      source: 'manual',
      weight: 0.8,
      updatedAt: T,
    });
    expect((await s.aliases.findByPrefix(guild, '$', 8)).map((a) => a.userId)).toEqual(['__proto__']);
    expect(await s.aliases.findByPrefix(guild, '^', 8)).toEqual([]);
    const m = makeMessage({
      guildId: guild,
      metadata: { $where: 'x', 'a.b': 'y', __proto__: 'z' } as Record<string, string>,
    });
    await s.queue.enqueue(m, 100);
    const [got] = await s.conversation.getMessages(guild, [m.messageId]);
    expect(Object.entries(got?.metadata ?? {}).sort()).toEqual(Object.entries(m.metadata ?? {}).sort());
    expect(await s.budgets.tokenUsage(guild, ['__proto__'])).toEqual(JSON.parse('{"__proto__":0}'));
  });

  it('rejects non-string ids and non-finite numbers before they reach the server', async () => {
    const s = await open(dbName());
    expect(await code(s.facts.get(G1, [{ $gt: '' }] as unknown as string[]))).toBe('SCHEMA_INVALID');
    expect(await code(s.facts.insert([makeFact({ strength: Number.NaN })]))).toBe('SCHEMA_INVALID');
    expect(await code(s.graph.bumpEntityFacts(G1, 'x', Number.POSITIVE_INFINITY))).toBe('SCHEMA_INVALID');
    await s.ping(); // FerretDB drops the connection on NaN: it never got one.
  });

  it('loses no update when several clients change the same documents at once', async () => {
    const db = dbName();
    const stores = await Promise.all([open(db), open(db), open(db), open(db)]);
    await Promise.all(
      stores.flatMap((s) =>
        Array.from({ length: 10 }, () => s.budgets.chargeTokens(G1, ['d:2026-09-01'], 1)),
      ),
    );
    await Promise.all(
      stores.flatMap((s, i) =>
        Array.from({ length: 5 }, (_, j) =>
          s.graph.upsertRelation({
            guildId: G1,
            src: { type: 'user', id: 'u1' },
            dst: { type: 'entity', id: 'tea' },
            verb: 'likes',
            polarity: 'positive',
            confidence: 0.5,
            evidenceFactId: `e${i}-${j}`,
            at: T,
          }),
        ),
      ),
    );
    const first = stores[0] as MongoMemoryStore;
    expect(await first.budgets.tokenUsage(G1, ['d:2026-09-01'])).toEqual({ 'd:2026-09-01': 40 });
    const [edge] = await first.graph.relationsOf(G1, [{ type: 'user', id: 'u1' }], 5);
    expect(edge?.occurrences).toBe(20);
  });

  it('grants a free or expired lease to exactly one of many racing clients', async () => {
    const db = dbName();
    const stores = await Promise.all(Array.from({ length: 5 }, () => open(db)));
    const lease = { guildId: G1, subjectKey: 'u1' };
    for (let round = 0; round < 10; round++) {
      const now = after(round * 10_000);
      const won = await Promise.all(
        stores.map((s, i) => s.queue.acquireLease({ key: lease, owner: `w${i}`, now, leaseMs: 5_000 })),
      );
      expect(won.filter(Boolean)).toHaveLength(1);
    }
  });

  it('takes over a version token left by a crashed writer once it is older than the TTL', async () => {
    const events: LogEvent[] = [];
    const db = dbName();
    const s = await open(db, { versionTokenTtlMs: 300, logger: (e) => events.push(e) });
    const f = makeFact({ text: 'token takeover' });
    await s.facts.insert([f]);
    const stored = await client
      ?.db(db)
      .collection<{ _id: string; ep: string }>('facts')
      .findOne({ _id: key(G1, f.id) });
    // A writer won this version and died before writing.
    await client
      ?.db(db)
      .collection<{ _id: string; at: Date }>('version_tokens')
      .insertOne({ _id: `facts|${key(G1, f.id)}|${stored?.ep}|1`, at: new Date() });
    const started = Date.now();
    const next = await s.facts.update(G1, f.id, { strength: 7 }, { at: T });
    expect(next?.strength).toBe(7);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(events.some((e) => e.event === 'store.mongo.stale_version_token')).toBe(true);
  });

  it('reads the messages right after a message (channelHistory afterMessageId)', async () => {
    const s = await open(dbName());
    const msgs = Array.from({ length: 6 }, () => makeMessage({ channelId: 'c8' }));
    await s.queue.enqueueMany([...msgs, makeMessage({ channelId: 'other' })], 100);
    const ids = (list: readonly { messageId: string }[]) => list.map((m) => m.messageId);
    const history = s.conversation.channelHistory.bind(s.conversation) as (
      g: string,
      c: string,
      o: { limit: number; beforeMessageId?: string; afterMessageId?: string },
    ) => Promise<{ messageId: string }[]>;
    const id = (i: number) => (msgs[i] as { messageId: string }).messageId;
    expect(ids(await history(G1, 'c8', { limit: 2, afterMessageId: id(1) }))).toEqual(ids(msgs.slice(2, 4)));
    expect(
      ids(await history(G1, 'c8', { limit: 10, afterMessageId: id(1), beforeMessageId: id(4) })),
    ).toEqual(ids(msgs.slice(2, 4)));
    expect(await history(G1, 'c8', { limit: 3, afterMessageId: id(5) })).toEqual([]);
    expect(await history(G1, 'c8', { limit: 3, afterMessageId: 'missing' })).toEqual([]);
  });

  it('never processes a row twice when its owner died between completing it and updating the queue', async () => {
    const db = dbName();
    const s = await open(db);
    const [m1, m2] = [makeMessage({ authorId: 'u1' }), makeMessage({ authorId: 'u1' })] as const;
    await s.queue.enqueueMany([m1, m2], 100);
    const batch = { guildId: G1, subjectKey: 'u1' };
    expect(
      (await s.queue.claim({ key: batch, owner: 'w1', now: T, leaseMs: 1_000, limit: 10 })).messages,
    ).toHaveLength(2);
    // w1 wrote m1's outcome (the commit point) and died before removing it from the bucket.
    await client
      ?.db(db)
      .collection<{ _id: string }>('queue_outcomes')
      .insertOne({
        _id: key(G1, m1.messageId),
        guildId: G1,
        messageId: m1.messageId,
        createdAt: m1.createdAt,
        processedAt: T,
        attempts: 0,
        next: null,
      } as never);
    expect(await s.queue.releaseExpired(after(2_000))).toBe(2);
    const again = await s.queue.claim({
      key: batch,
      owner: 'w2',
      now: after(3_000),
      leaseMs: 60_000,
      limit: 10,
    });
    expect(again.messages.map((m) => m.messageId)).toEqual([m2.messageId]);
    expect(await s.queue.complete(G1, [m2.messageId], 'w2', after(4_000))).toBe(1);
    expect(await s.queue.counts(G1)).toEqual({ pending: 0, claimed: 0, processed: 2, dead: 0 });
  });

  it('keeps an enqueued row as an intake record until a claim of its key folds it into the bucket', async () => {
    const db = dbName();
    const s = await open(db);
    const m = makeMessage({ authorId: 'u9' });
    expect(await s.queue.enqueue(m, 100)).toBe('accepted');
    const raw = client?.db(db);
    expect(await raw?.collection<{ _id: string }>('queue_buckets').countDocuments({})).toBe(0);
    expect(await raw?.collection<{ _id: string }>('queue_intake').countDocuments({})).toBe(1);
    // A second enqueue of the same row is a duplicate and leaves nothing behind.
    expect(await s.queue.enqueue(m, 100)).toBe('duplicate');
    expect(await raw?.collection<{ _id: string }>('queue_intake').countDocuments({})).toBe(1);
    expect(await s.queue.counts(G1)).toEqual({ pending: 1, claimed: 0, processed: 0, dead: 0 });
    const due = { now: after(0), batchSize: 1, olderThan: after(0), limit: 10 };
    expect(await s.queue.dueKeys(due)).toEqual([{ guildId: G1, subjectKey: 'u9' }]);
    const claimed = await s.queue.claim({
      key: { guildId: G1, subjectKey: 'u9' },
      owner: 'w',
      now: after(1),
      leaseMs: 1_000,
      limit: 5,
    });
    expect(claimed.messages.map((x) => x.messageId)).toEqual([m.messageId]);
    expect(await raw?.collection<{ _id: string }>('queue_intake').countDocuments({})).toBe(0);
    expect(await s.queue.counts(G1)).toEqual({ pending: 0, claimed: 1, processed: 0, dead: 0 });
  });

  it('never registers an intake record that did not insert its row; drops it once stale', async () => {
    const db = dbName();
    const s = await open(db);
    const m = makeMessage({ authorId: 'u9' });
    const ghost = makeMessage({ authorId: 'u9' });
    await s.queue.enqueue(m, 100);
    const k = { guildId: G1, subjectKey: 'u9' };
    await s.queue.claim({ key: k, owner: 'w', now: after(1), leaseMs: 60_000, limit: 5 });
    expect(await s.queue.complete(G1, [m.messageId], 'w', after(2))).toBe(1);
    await s.queue.releaseLease(k, 'w');
    const intake = client?.db(db).collection<{ _id: string }>('queue_intake');
    const record = (id: string, ageMs: number) => ({
      guildId: G1,
      subjectKey: 'u9',
      at: new Date(Date.now() - ageMs),
      ik: 'not-the-row-token',
      item: { id, at: T, st: 'pending', n: 0, next: null, own: null, until: null, el: true, ins: new Date() },
      outcome: null,
    });
    // An enqueue that found m already there and died before removing its record; an enqueue of
    // `ghost` that died before inserting the row (young, then stale).
    await intake?.insertMany([
      { _id: key(G1, m.messageId), ...record(m.messageId, 0) },
      { _id: key(G1, ghost.messageId), ...record(ghost.messageId, 0) },
    ] as never);
    const again = await s.queue.claim({ key: k, owner: 'w2', now: after(3), leaseMs: 60_000, limit: 5 });
    expect(again.messages).toEqual([]);
    expect(await s.queue.counts(G1)).toEqual({ pending: 1, claimed: 0, processed: 1, dead: 0 });
    expect((await intake?.find({}).toArray())?.map((d) => d._id)).toEqual([key(G1, ghost.messageId)]);
    await intake?.updateOne(
      { _id: key(G1, ghost.messageId) },
      { $set: { at: new Date(Date.now() - 120_000) } },
    );
    await s.queue.releaseExpired(after(4));
    expect(await intake?.countDocuments({})).toBe(0);
    expect(await s.queue.counts(G1)).toEqual({ pending: 0, claimed: 0, processed: 1, dead: 0 });
  });
});

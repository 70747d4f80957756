// Wire-server capability contract for the Mongo store.
//
// Needs a running server: MONGO_URL=mongodb://127.0.0.1:<port>/ (see scripts/ferretdb.sh and
// docs/stores-ferretdb-notes.md). Runs when env STORES includes mongo; then it fails when MONGO_URL is
// unset or unreachable.
//
// "portable" tests assert what the store may rely on: it must hold on MongoDB >= 6 AND on
// FerretDB v1 (SQLite). "FerretDB v1 limitations" pin the documented gaps, so a FerretDB upgrade
// that changes them fails here and the notes get updated. Real MongoDB runs the mirror checks.
import {
  Binary,
  type Collection,
  type Db,
  type Document,
  Long,
  MongoClient,
  type MongoServerError,
} from 'mongodb';
import { afterAll, beforeAll, expect, it, describe as vitestDescribe } from 'vitest';
import { mongoSelected } from './backend-selection.js';

// Runs when STORES selects mongo (then an unset or unreachable MONGO_URL fails the file);
// otherwise every suite here is registered as skipped. Top-level hooks only run with tests.
const describe = vitestDescribe.runIf(mongoSelected);

const { MONGO_URL: url } = process.env;
const dbName = `caps_${process.pid}_${Date.now()}`;

/** Loose row shape: explicit `_id` (string or number) plus the fields the tests touch. */
interface Row {
  _id?: string | number;
  a?: number;
  b?: number;
  n?: number;
  m?: number;
  s?: string;
  s2?: string;
  v?: number;
  k?: unknown;
  g?: number;
  x?: number;
  t?: string;
  at?: Date;
  big?: bigint | Long;
  arr?: number[];
  set?: string[];
  tags?: string[];
  items?: { k?: string; q?: number }[];
  emb?: Binary;
  name?: string;
  owner?: string;
  leaseUntil?: Date;
  email?: string;
  active?: boolean;
  gone?: number;
  created?: boolean;
  fresh?: boolean;
  d?: number;
  same?: Row[];
}
interface ServerInfo {
  ok?: number;
  version?: string;
  ferretdbVersion?: string;
  ferretdb?: unknown;
  isWritablePrimary?: boolean;
  maxBsonObjectSize?: number;
  setName?: string;
}

let client: MongoClient;
let client2: MongoClient;
let db: Db;
let isFerret = false;

async function errorOf(fn: () => Promise<unknown>): Promise<MongoServerError | Error | undefined> {
  try {
    await fn();
  } catch (e) {
    return e as Error;
  }
  return undefined;
}

const codeOf = (e: unknown): unknown => (e as { code?: unknown } | undefined)?.code;

async function isDupKey(fn: () => Promise<unknown>): Promise<boolean> {
  const e = await errorOf(fn);
  if (e === undefined) return false;
  if (codeOf(e) === 11000) return true;
  throw e;
}

beforeAll(async () => {
  if (!url) {
    throw new Error('MONGO_URL is not set: start a server (scripts/ferretdb.sh start) and export MONGO_URL');
  }
  client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  client2 = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  await client2.connect();
  db = client.db(dbName);
  const info: ServerInfo = await client.db('admin').command({ buildInfo: 1 });
  isFerret = typeof info.ferretdbVersion === 'string' || info.ferretdb !== undefined;
}, 15_000);

afterAll(async () => {
  await db?.dropDatabase().catch(() => undefined);
  await client?.close();
  await client2?.close();
});

describe('server identity', () => {
  it('answers ping, hello and buildInfo', async () => {
    const ping: ServerInfo = await client.db('admin').command({ ping: 1 });
    expect(ping.ok).toBe(1);
    const hello: ServerInfo = await client.db('admin').command({ hello: 1 });
    expect(hello.isWritablePrimary).toBe(true);
    expect(hello.maxBsonObjectSize).toBe(16 * 1024 * 1024);
    const info: ServerInfo = await client.db('admin').command({ buildInfo: 1 });
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    if (isFerret) {
      expect(info.ferretdbVersion).toBe('v1.24.2');
      expect(hello.setName).toBeUndefined();
    }
  });
});

describe('portable: indexes and uniqueness', () => {
  it('unique compound index rejects duplicates with code 11000', async () => {
    const c = db.collection<Row>('u_compound');
    await c.createIndex({ a: 1, b: 1 }, { unique: true });
    await c.insertOne({ a: 1, b: 1 });
    await c.insertOne({ a: 1, b: 2 });
    expect(await isDupKey(() => c.insertOne({ a: 1, b: 1 }))).toBe(true);
  });

  it('sparse unique index ignores docs without the field', async () => {
    const c = db.collection<Row>('u_sparse');
    await c.createIndex({ email: 1 }, { unique: true, sparse: true });
    await c.insertMany([{ x: 1 }, { x: 2 }, { email: 'a' }]);
    expect(await isDupKey(() => c.insertOne({ email: 'a' }))).toBe(true);
  });

  it('multikey index answers array-element queries', async () => {
    const c = db.collection<Row>('multikey');
    await c.createIndex({ tags: 1 });
    await c.insertMany([{ tags: ['a', 'b'] }, { tags: ['b', 'c'] }, { tags: [] }]);
    expect(await c.countDocuments({ tags: 'b' })).toBe(2);
    expect(await c.countDocuments({ tags: { $in: ['a', 'c'] } })).toBe(2);
  });

  it('case-insensitive $regex works as keyword-search fallback', async () => {
    const c = db.collection<Row>('kw');
    await c.insertMany([{ t: 'Quick brown fox' }, { t: 'lazy dog' }]);
    expect(await c.countDocuments({ t: { $regex: 'QUICK', $options: 'i' } })).toBe(1);
  });
});

describe('portable: findOneAndUpdate and leases', () => {
  it('upsert + returnDocument after returns the document', async () => {
    const c = db.collection<Row>('fau');
    const r = await c.findOneAndUpdate(
      { _id: 'k' },
      { $set: { v: 1 }, $setOnInsert: { created: true } },
      { upsert: true, returnDocument: 'after' },
    );
    expect(r).toMatchObject({ _id: 'k', v: 1, created: true });
  });

  it('lease via $or filter + upsert: a live lease makes the upsert collide (E11000)', async () => {
    const c = db.collection<Row>('lease');
    const acquire = async (owner: string, now: Date) => {
      try {
        return await c.findOneAndUpdate(
          { _id: 'job', $or: [{ owner }, { leaseUntil: { $lte: now } }] },
          { $set: { owner, leaseUntil: new Date(now.getTime() + 10_000) } },
          { upsert: true, returnDocument: 'after' },
        );
      } catch (e) {
        if (codeOf(e) === 11000) return null;
        throw e;
      }
    };
    const t = Date.now();
    expect((await acquire('A', new Date(t)))?.owner).toBe('A');
    expect(await acquire('B', new Date(t + 1000))).toBeNull();
    expect((await acquire('A', new Date(t + 2000)))?.owner).toBe('A');
    expect((await acquire('B', new Date(t + 60_000)))?.owner).toBe('B');
    expect(await c.countDocuments()).toBe(1);
  });
});

describe('portable: update operators', () => {
  let seq = 0;
  const fresh = async (): Promise<[Collection<Row>, number]> => {
    const c = db.collection<Row>('upd');
    const _id = ++seq;
    await c.insertOne({ _id: _id, n: 1, s: 'a', gone: 1, arr: [1, 2, 3], set: ['x'] });
    return [c, _id];
  };

  it('$inc/$set/$unset via updateMany', async () => {
    const c = db.collection<Row>('upd_many');
    await c.insertMany([
      { n: 1, gone: 1 },
      { n: 5, gone: 1 },
    ]);
    const r = await c.updateMany({}, { $inc: { n: 10 }, $set: { s: 'z' }, $unset: { gone: '' } });
    expect(r.modifiedCount).toBe(2);
    const docs = await c
      .find({}, { projection: { _id: 0 } })
      .sort({ n: 1 })
      .toArray();
    expect(docs).toEqual([
      { n: 11, s: 'z' },
      { n: 15, s: 'z' },
    ]);
  });

  it.each<[string, Document, unknown[]]>([
    ['$push single', { $push: { arr: 4 } }, [1, 2, 3, 4]],
    ['$push $each (no modifiers)', { $push: { arr: { $each: [4, 5] } } }, [1, 2, 3, 4, 5]],
    ['$pull scalar', { $pull: { arr: 2 } }, [1, 3]],
    ['$pullAll', { $pullAll: { arr: [1, 2] } }, [3]],
    ['$pop', { $pop: { arr: 1 } }, [1, 2]],
  ])('%s', async (_name, update, expected) => {
    const [c, _id] = await fresh();
    await c.updateOne({ _id }, update);
    expect((await c.findOne({ _id }))?.arr).toEqual(expected);
  });

  it('$addToSet $each dedupes', async () => {
    const [c, _id] = await fresh();
    await c.updateOne({ _id }, { $addToSet: { set: { $each: ['x', 'y', 'y'] } } });
    expect((await c.findOne({ _id }))?.set).toEqual(['x', 'y']);
  });

  it('$max/$min/$currentDate/$rename and replaceOne', async () => {
    const [c, _id] = await fresh();
    await c.updateOne(
      { _id },
      { $max: { n: 100 }, $min: { m: 1 }, $currentDate: { at: true }, $rename: { s: 's2' } },
    );
    const d = await c.findOne({ _id });
    expect(d).toMatchObject({ n: 100, m: 1, s2: 'a' });
    expect(d?.at).toBeInstanceOf(Date);
    await c.replaceOne({ _id }, { fresh: true });
    expect(await c.findOne({ _id })).toEqual({ _id, fresh: true });
  });
});

describe('portable: bulk writes', () => {
  it('ordered bulkWrite stops at the duplicate', async () => {
    const c = db.collection<Row>('bulk_o');
    const e = await errorOf(() =>
      c.bulkWrite(
        [
          { insertOne: { document: { _id: 1 } } },
          { insertOne: { document: { _id: 1 } } },
          { insertOne: { document: { _id: 2 } } },
        ],
        {
          ordered: true,
        },
      ),
    );
    expect(codeOf(e)).toBe(11000);
    expect(await c.countDocuments()).toBe(1);
  });

  it('unordered bulkWrite applies everything except the duplicate', async () => {
    const c = db.collection<Row>('bulk_u');
    const e = await errorOf(() =>
      c.bulkWrite(
        [
          { insertOne: { document: { _id: 1 } } },
          { insertOne: { document: { _id: 1 } } },
          { insertOne: { document: { _id: 2 } } },
          { updateOne: { filter: { _id: 2 }, update: { $set: { x: 1 } } } },
          { deleteOne: { filter: { _id: 1 } } },
        ],
        { ordered: false },
      ),
    );
    expect(codeOf(e)).toBe(11000);
    expect(await c.find().toArray()).toEqual([{ _id: 2, x: 1 }]);
  });

  it('insertMany ordered:false inserts the non-duplicates; deleteMany counts', async () => {
    const c = db.collection<Row>('im');
    const e = await errorOf(() =>
      c.insertMany([{ _id: 1 }, { _id: 1 }, { _id: 2 }, { _id: 2 }, { _id: 3 }], { ordered: false }),
    );
    expect(codeOf(e)).toBe(11000);
    expect(await c.countDocuments()).toBe(3);
    expect((await c.deleteMany({ _id: { $gte: 2 } })).deletedCount).toBe(2);
  });
});

describe('portable: aggregation subset', () => {
  beforeAll(async () => {
    await db
      .collection<Row>('agg')
      .insertMany(
        Array.from({ length: 20 }, (_, i) => ({ _id: i, g: i % 4, v: i, tags: ['t', `t${i % 2}`] })),
      );
  });

  it('$match/$group $sum/$sort/$limit/$project/$count/$unwind/$addFields/$skip', async () => {
    const c = db.collection<Row>('agg');
    // One accumulator per $group: FerretDB v1 computes only the first one (see limitations below).
    const totals = await c
      .aggregate([
        { $match: { v: { $gte: 4 } } },
        { $group: { _id: '$g', total: { $sum: '$v' } } },
        { $sort: { total: -1 } },
        { $limit: 1 },
      ])
      .toArray();
    expect(totals).toEqual([{ _id: 3, total: 7 + 11 + 15 + 19 }]);
    const counts = await c
      .aggregate<Row>([{ $group: { _id: '$g', n: { $sum: 1 } } }, { $sort: { _id: 1 } }])
      .toArray();
    expect(counts.map((d) => d.n)).toEqual([5, 5, 5, 5]);
    expect(await c.aggregate([{ $match: { g: 1 } }, { $count: 'n' }]).toArray()).toEqual([{ n: 5 }]);
    expect(
      await c
        .aggregate([{ $match: { _id: 0 } }, { $unwind: '$tags' }, { $project: { _id: 0, tags: 1 } }])
        .toArray(),
    ).toEqual([{ tags: 't' }, { tags: 't0' }]);
    const tail = await c
      .aggregate([
        { $sort: { _id: 1 } },
        { $skip: 18 },
        { $addFields: { x: 1 } },
        { $project: { _id: 1, x: 1 } },
      ])
      .toArray();
    expect(tail).toEqual([
      { _id: 18, x: 1 },
      { _id: 19, x: 1 },
    ]);
  });
});

describe('portable: data types', () => {
  it('Binary subtype 0 holding a Float32Array round-trips bit-exact', async () => {
    const f = new Float32Array([0.1, -2.5, 3.25, Number.MIN_VALUE, 1e30]);
    const c = db.collection<Row>('bin');
    await c.insertOne({ _id: 'v', emb: new Binary(Buffer.from(f.buffer), 0) });
    const d = await c.findOne({ _id: 'v' });
    const emb = d?.emb as Binary;
    const b = emb.buffer;
    expect(emb.sub_type).toBe(0);
    expect(new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength))).toEqual(f);
  });

  it('Date and Long (int64 beyond 2^53) round-trip', async () => {
    const c = db.collection<Row>('types');
    const at = new Date('2024-02-29T12:34:56.789Z');
    await c.insertOne({ _id: 't', at, big: Long.fromString('9007199254740993') });
    const d = await c.findOne({ _id: 't', at: { $gte: at } }, { useBigInt64: true });
    expect(d?.at).toEqual(at);
    expect(d?.big).toBe(9007199254740993n);
  });

  it('"{\\"$gt\\": \\"\\"}" strings are plain data; checkKeys:true rejects $/. keys client-side', async () => {
    const c = db.collection<Row>('keys');
    const s = '{"$gt": ""}';
    await c.insertOne({ _id: 's', s });
    expect(await c.findOne({ s: { $eq: s } })).toEqual({ _id: 's', s });
    // Servers differ (MongoDB >= 5 stores `$x`/`a.b` keys, FerretDB rejects them): the driver's
    // checkKeys makes the behaviour identical everywhere.
    const raw = db.collection('keys_raw');
    expect(await errorOf(() => raw.insertOne({ $bad: 1 }, { checkKeys: true }))).toBeDefined();
    expect(await errorOf(() => raw.insertOne({ 'a.b': 1 }, { checkKeys: true }))).toBeDefined();
    expect(await raw.countDocuments()).toBe(0);
  });

  it('1 MB string document round-trips', async () => {
    const c = db.collection<Row>('large');
    const s = 'x'.repeat(1024 * 1024);
    await c.insertOne({ _id: 1, s });
    expect((await c.findOne({ _id: 1 }))?.s).toHaveLength(s.length);
  });
});

describe('portable: reads and admin', () => {
  it('countDocuments/estimatedDocumentCount/distinct/sort+skip+limit/listCollections', async () => {
    const c = db.collection<Row>('reads');
    await c.insertMany(
      Array.from({ length: 30 }, (_, i) => ({ _id: i, k: i % 4, name: `n${String(i).padStart(2, '0')}` })),
    );
    expect(await c.countDocuments({ k: 1 })).toBe(8);
    expect(await c.estimatedDocumentCount()).toBe(30);
    expect([...(await c.distinct('k'))].sort()).toEqual([0, 1, 2, 3]);
    const page = await c
      .find({}, { projection: { _id: 0, name: 1 } })
      .sort({ name: -1 })
      .skip(2)
      .limit(3)
      .toArray();
    expect(page.map((d) => d.name)).toEqual(['n27', 'n26', 'n25']);
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((x) => x.name);
    expect(names).toContain('reads');
  });

  it('dropDatabase removes the database', async () => {
    const other = client.db(`${dbName}_drop`);
    await other.collection<Row>('x').insertOne({ a: 1 });
    expect(await other.dropDatabase()).toBe(true);
    const dbs = (await client.db('admin').admin().listDatabases()).databases.map((d) => d.name);
    expect(dbs).not.toContain(`${dbName}_drop`);
  });
});

describe('portable: atomic primitives under concurrency (two clients)', () => {
  const ROUNDS = 150;

  it('insertOne of the same _id: exactly one winner, loser gets E11000', async () => {
    const a = client.db(dbName).collection<Row>('race_ins');
    const b = client2.db(dbName).collection<Row>('race_ins');
    for (let r = 0; r < ROUNDS; r++) {
      const res = await Promise.allSettled([a.insertOne({ _id: `r${r}` }), b.insertOne({ _id: `r${r}` })]);
      expect(res.filter((x) => x.status === 'fulfilled')).toHaveLength(1);
      const rejected = res.find((x) => x.status === 'rejected');
      expect(codeOf(rejected?.reason)).toBe(11000);
    }
  }, 30_000);

  it('deleteOne of the same _id: deletedCount credited exactly once', async () => {
    const a = client.db(dbName).collection<Row>('race_del');
    const b = client2.db(dbName).collection<Row>('race_del');
    await a.insertMany(Array.from({ length: ROUNDS }, (_, r) => ({ _id: `r${r}` })));
    for (let r = 0; r < ROUNDS; r++) {
      const [x, y] = await Promise.all([a.deleteOne({ _id: `r${r}` }), b.deleteOne({ _id: `r${r}` })]);
      expect(x.deletedCount + y.deletedCount).toBe(1);
    }
  }, 30_000);

  it('generation lease (insert {_id: res#gen}) never double-grants', async () => {
    const a = client.db(dbName).collection<Row>('race_lease');
    const b = client2.db(dbName).collection<Row>('race_lease');
    const grab = async (c: Collection<Row>, owner: string, gen: number) =>
      !(await isDupKey(() => c.insertOne({ _id: `job#${gen}`, owner })));
    for (let gen = 0; gen < ROUNDS; gen++) {
      const grants = await Promise.all([grab(a, 'A', gen), grab(b, 'B', gen)]);
      expect(grants.filter(Boolean)).toHaveLength(1);
    }
  }, 30_000);
});

describe('FerretDB v1 limitations (keep docs/stores-ferretdb-notes.md in sync)', () => {
  const notImplemented = async (fn: () => Promise<unknown>, code: number, message: RegExp) => {
    const e = await errorOf(fn);
    expect(e, 'expected an error: FerretDB may have gained this feature, update the notes').toBeDefined();
    expect(codeOf(e)).toBe(code);
    expect(e?.message).toMatch(message);
  };

  it('partial and TTL indexes are rejected', async ({ skip }) => {
    if (!isFerret) skip();
    const c = db.collection<Row>('lim_idx');
    await notImplemented(
      () => c.createIndex({ k: 1 }, { unique: true, partialFilterExpression: { validUntil: null } }),
      238,
      /Index option "partialFilterExpression" is not implemented yet/,
    );
    await notImplemented(
      () => c.createIndex({ at: 1 }, { expireAfterSeconds: 60 }),
      238,
      /Index option "expireAfterSeconds" is not implemented yet/,
    );
  });

  it('text indexes and $text are rejected', async ({ skip }) => {
    if (!isFerret) skip();
    const c = db.collection<Row>('lim_text');
    await c.insertOne({ t: 'x' }); // $text on a missing/empty collection just returns nothing
    await notImplemented(() => c.createIndex({ text: 'text' }), 27, /can't find index with key/);
    await notImplemented(
      () => c.countDocuments({ $text: { $search: 'x' } }),
      2,
      /unknown top level operator: \$text/,
    );
  });

  it('transactions, $vectorSearch, $lookup, $facet, $sample, arrayFilters, pipeline updates are rejected', async ({
    skip,
  }) => {
    if (!isFerret) skip();
    const c = db.collection<Row>('lim_misc');
    await c.insertOne({ _id: 1, items: [{ k: 'a' }] });
    const session = client.startSession();
    try {
      await notImplemented(
        () => session.withTransaction(async () => c.insertOne({ x: 1 }, { session })),
        9,
        /unknown field "autocommit"/,
      );
    } finally {
      await session.endSession();
    }
    const stage = (s: Document) => () => c.aggregate([s]).toArray();
    await notImplemented(
      stage({ $vectorSearch: { index: 'v', path: 'e', queryVector: [1], numCandidates: 1, limit: 1 } }),
      40234,
      /\$vectorSearch/,
    );
    await notImplemented(
      stage({ $lookup: { from: 'x', localField: 'a', foreignField: 'b', as: 'c' } }),
      238,
      /\$lookup/,
    );
    await notImplemented(stage({ $facet: { a: [] } }), 238, /\$facet/);
    await notImplemented(stage({ $sample: { size: 1 } }), 238, /\$sample/);
    await notImplemented(
      () => c.updateOne({ _id: 1 }, { $set: { 'items.$[e].k': 'b' } }, { arrayFilters: [{ 'e.k': 'a' }] }),
      238,
      /arrayFilters/,
    );
    await notImplemented(() => c.updateOne({ _id: 1 }, [{ $set: { y: 1 } }]), 14, /wrong type 'array'/);
  });

  it('$push modifiers $slice/$sort/$position are silently ignored (data hazard)', async ({ skip }) => {
    if (!isFerret) skip();
    const c = db.collection<Row>('lim_push');
    await c.insertOne({ _id: 1, arr: [1, 2, 3] });
    await c.updateOne({ _id: 1 }, { $push: { arr: { $each: [4, 5], $slice: -3 } } });
    expect((await c.findOne({ _id: 1 }))?.arr).toEqual([1, 2, 3, 4, 5]);
  });

  it('server rejects $-prefixed and dotted keys', async ({ skip }) => {
    if (!isFerret) skip();
    const raw = db.collection('lim_keys');
    await notImplemented(() => raw.insertOne({ $bad: 1 }), 2, /key must not start with '\$' sign/);
    await notImplemented(() => raw.insertOne({ 'a.b': 1 }), 2, /key must not contain '\.' sign/);
  });

  it('$group with several accumulators computes only the first; the rest are 0 (silent!)', async ({
    skip,
  }) => {
    if (!isFerret) skip();
    const out = await db
      .collection<Row>('agg')
      .aggregate([{ $match: { g: 0 } }, { $group: { _id: '$g', total: { $sum: '$v' }, n: { $sum: 1 } } }])
      .toArray();
    expect(out).toEqual([{ _id: 0, total: 0 + 4 + 8 + 12 + 16, n: 0 }]);
  });

  it('nested arrays are rejected', async ({ skip }) => {
    if (!isFerret) skip();
    await notImplemented(
      () => db.collection('lim_nested').insertOne({ m: [[1, 2]] }),
      2,
      /nested arrays are not supported/,
    );
  });
});

describe('MongoDB: features FerretDB lacks are present', () => {
  it('partial unique index, TTL index, $lookup, arrayFilters, pipeline update', async ({ skip }) => {
    if (isFerret) skip();
    const c = db.collection<Row>('mongo_only');
    await c.createIndex({ k: 1 }, { unique: true, partialFilterExpression: { active: true } });
    await c.createIndex({ at: 1 }, { expireAfterSeconds: 3600 });
    await c.insertMany([
      { _id: 1, k: 'a', active: false, items: [{ q: 1 }] },
      { _id: 2, k: 'a', active: false },
    ]);
    expect(
      await isDupKey(() =>
        c.insertMany([
          { k: 'a', active: true },
          { k: 'a', active: true },
        ]),
      ),
    ).toBe(true);
    await c.updateOne({ _id: 1 }, { $set: { 'items.$[e].q': 2 } }, { arrayFilters: [{ 'e.q': 1 }] });
    await c.updateOne({ _id: 1 }, [{ $set: { d: { $multiply: [2, 3] } } }]);
    expect(await c.findOne({ _id: 1 })).toMatchObject({ items: [{ q: 2 }], d: 6 });
    const joined = await c
      .aggregate<Row>([
        { $match: { _id: 1 } },
        { $lookup: { from: 'mongo_only', localField: 'k', foreignField: 'k', as: 'same' } },
      ])
      .toArray();
    expect(joined[0]?.same).toHaveLength(3);
  });
});

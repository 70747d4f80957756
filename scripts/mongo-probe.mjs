#!/usr/bin/env node
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
// Capability probe for a MongoDB-wire server (real MongoDB, Atlas or FerretDB).
//
//   MONGO_URL=mongodb://127.0.0.1:27017/ node scripts/mongo-probe.mjs [--json out.json] [--ttl-wait 70]
//
// Every probe checks semantics, not just "no error": a probe is `ok` only when the server did
// what real MongoDB does. Failures carry the exact server/driver error text.
// Uses the `mongodb` driver that packages/store-mongo depends on.
import { performance } from 'node:perf_hooks';

const require = createRequire(new URL('../packages/store-mongo/package.json', import.meta.url));
const { MongoClient, Binary, Long } = require('mongodb');

const args = process.argv.slice(2);
const argValue = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : dflt;
};
const jsonOut = argValue('--json', '');
const ttlWaitSec = Number(argValue('--ttl-wait', '70'));

const url = process.env.MONGO_URL;
if (!url) {
  console.error('MONGO_URL is not set');
  process.exit(2);
}

const results = [];
const fmtErr = (e) => {
  const parts = [e?.name ?? 'Error'];
  if (e?.code !== undefined) parts.push(`code=${e.code}`);
  if (e?.codeName) parts.push(`(${e.codeName})`);
  return `${parts.join(' ')}: ${e?.message ?? String(e)}`;
};
const check = (cond, msg) => {
  if (!cond) throw new Error(`semantic mismatch: ${msg}`);
};
async function probe(area, name, fn) {
  const t0 = performance.now();
  try {
    const detail = await fn();
    results.push({ area, name, ok: true, detail: detail ?? '', ms: Math.round(performance.now() - t0) });
  } catch (e) {
    results.push({ area, name, ok: false, error: fmtErr(e), ms: Math.round(performance.now() - t0) });
  }
}
const expectError = async (fn) => {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  return null;
};

const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
const client2 = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
await client.connect();
await client2.connect();
const dbName = `probe_${process.pid}_${Date.now()}`;
const db = client.db(dbName);

// ---------------------------------------------------------------- server identity
const admin = client.db('admin');
const hello = await admin.command({ hello: 1 });
const buildInfo = await admin.command({ buildInfo: 1 });
const identity = {
  helloKeys: Object.keys(hello).sort(),
  hello: {
    isWritablePrimary: hello.isWritablePrimary,
    setName: hello.setName,
    msg: hello.msg,
    maxWireVersion: hello.maxWireVersion,
    logicalSessionTimeoutMinutes: hello.logicalSessionTimeoutMinutes,
    maxBsonObjectSize: hello.maxBsonObjectSize,
    maxMessageSizeBytes: hello.maxMessageSizeBytes,
    maxWriteBatchSize: hello.maxWriteBatchSize,
  },
  buildInfoKeys: Object.keys(buildInfo).sort(),
  buildInfo: {
    version: buildInfo.version,
    gitVersion: buildInfo.gitVersion,
    modules: buildInfo.modules,
    ferretdb: buildInfo.ferretdb,
    ferretdbVersion: buildInfo.ferretdbVersion,
    ferretdbFeatures: buildInfo.ferretdbFeatures,
  },
};

// ---------------------------------------------------------------- indexes
await probe('index', 'unique compound {a:1,b:1}', async () => {
  const c = db.collection('idx_unique');
  await c.createIndex({ a: 1, b: 1 }, { unique: true, name: 'a_b_unique' });
  await c.insertOne({ a: 1, b: 1 });
  await c.insertOne({ a: 1, b: 2 });
  const e = await expectError(() => c.insertOne({ a: 1, b: 1 }));
  check(e && e.code === 11000, `duplicate not rejected with 11000 (${e ? fmtErr(e) : 'no error'})`);
  return `dup rejected: ${fmtErr(e)}`;
});

for (const [label, pfe] of [
  ['{validUntil: null}', { validUntil: null }],
  ['{validUntil: {$eq: null}}', { validUntil: { $eq: null } }],
  ['{active: true}', { active: true }],
  ['{validUntil: {$exists: false}}', { validUntil: { $exists: false } }],
]) {
  await probe('index', `partial unique partialFilterExpression ${label}`, async () => {
    const c = db.collection(`idx_partial_${results.length}`);
    await c.createIndex({ key: 1 }, { unique: true, partialFilterExpression: pfe });
    const idx = (await c.listIndexes().toArray()).find((i) => i.name !== '_id_');
    check(
      idx?.partialFilterExpression,
      `index created without partialFilterExpression: ${JSON.stringify(idx)}`,
    );
    // two docs outside the filter must coexist, two inside must not
    const inside = label.includes('active') ? { active: true } : {};
    const outside = label.includes('active') ? { active: false } : { validUntil: new Date() };
    await c.insertOne({ key: 'k', ...outside });
    await c.insertOne({ key: 'k', ...outside });
    await c.insertOne({ key: 'k', ...inside });
    const e = await expectError(() => c.insertOne({ key: 'k', ...inside }));
    check(e && e.code === 11000, `second in-filter doc accepted (${e ? fmtErr(e) : 'no error'})`);
    return 'created; enforced only inside filter';
  });
}

await probe('index', 'multikey index on array field', async () => {
  const c = db.collection('idx_multikey');
  await c.createIndex({ tags: 1 });
  await c.insertMany([{ tags: ['a', 'b'] }, { tags: ['b', 'c'] }, { tags: [] }, { tags: 'a' }]);
  const n = await c.countDocuments({ tags: 'b' });
  const m = await c.countDocuments({ tags: { $in: ['a', 'c'] } });
  check(n === 2 && m === 3, `counts ${n}/${m}`);
  return 'created; array-element queries correct';
});

await probe('index', 'unique multikey index (array elements unique across docs)', async () => {
  const c = db.collection('idx_multikey_unique');
  await c.createIndex({ aliases: 1 }, { unique: true });
  await c.insertOne({ aliases: ['x', 'y'] });
  const e = await expectError(() => c.insertOne({ aliases: ['y', 'z'] }));
  check(e && e.code === 11000, `overlapping array accepted (${e ? fmtErr(e) : 'no error'})`);
  return 'enforced per element';
});

await probe(
  'index',
  'unique index: two docs missing the field (MongoDB: E11000, null == missing)',
  async () => {
    const c = db.collection('idx_unique_missing');
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertOne({ x: 1 });
    const e = await expectError(() => c.insertOne({ x: 2 }));
    check(e?.code === 11000, `second doc without field accepted (${e ? fmtErr(e) : 'no error'})`);
    return 'rejected like MongoDB';
  },
);
await probe('index', 'sparse unique index', async () => {
  const c = db.collection('idx_sparse');
  await c.createIndex({ email: 1 }, { unique: true, sparse: true });
  await c.insertMany([{ x: 1 }, { x: 2 }, { email: 'a' }]);
  const e = await expectError(() => c.insertOne({ email: 'a' }));
  check(e?.code === 11000, `dup accepted (${e ? fmtErr(e) : 'no error'})`);
  return 'ok';
});
await probe('index', 'createIndex idempotent (same spec twice) + listIndexes', async () => {
  const c = db.collection('idx_unique');
  const n1 = await c.createIndex({ a: 1, b: 1 }, { unique: true, name: 'a_b_unique' });
  const list = await c.listIndexes().toArray();
  const idx = list.find((i) => i.name === n1);
  check(idx?.unique === true && JSON.stringify(idx.key) === '{"a":1,"b":1}', JSON.stringify(list));
  return 'ok';
});
await probe('index', 'unique index on existing duplicates (expect fail)', async () => {
  const c = db.collection('idx_late');
  await c.insertMany([{ k: 1 }, { k: 1 }]);
  const e = await expectError(() => c.createIndex({ k: 1 }, { unique: true }));
  check(e, 'created over duplicates');
  return `rejected: ${fmtErr(e).slice(0, 400)}`;
});
await probe('index', "text index {text:'text'}", async () => {
  const c = db.collection('idx_text');
  await c.createIndex({ text: 'text' });
  return 'created';
});

await probe('query', "$text search + sort {score: {$meta:'textScore'}}", async () => {
  const c = db.collection('idx_text');
  await c.insertMany([
    { text: 'the quick brown fox' },
    { text: 'lazy dog sleeps' },
    { text: 'quick quick fox fox' },
  ]);
  const docs = await c
    .find({ $text: { $search: 'quick fox' } }, { projection: { score: { $meta: 'textScore' } } })
    .sort({ score: { $meta: 'textScore' } })
    .toArray();
  check(docs.length === 2, `got ${docs.length} docs`);
  return `top: ${docs[0].text}`;
});

await probe('query', '$text search without $meta sort', async () => {
  const n = await db.collection('idx_text').countDocuments({ $text: { $search: 'quick' } });
  check(n === 2, `got ${n}`);
  return 'ok';
});
await probe('query', '$regex keyword search (case-insensitive, no index)', async () => {
  const c = db.collection('idx_text');
  const n = await c.countDocuments({ text: { $regex: 'QUICK', $options: 'i' } });
  check(n === 2, `got ${n}`);
  return 'works';
});

await probe('index', 'TTL index expireAfterSeconds', async () => {
  const c = db.collection('idx_ttl');
  await c.createIndex({ createdAt: 1 }, { expireAfterSeconds: 1 });
  const idx = (await c.listIndexes().toArray()).find((i) => i.name !== '_id_');
  check(idx?.expireAfterSeconds === 1, `listIndexes lost expireAfterSeconds: ${JSON.stringify(idx)}`);
  await c.insertOne({ createdAt: new Date(Date.now() - 3600_000) });
  return 'created (expiry checked separately)';
});

// ---------------------------------------------------------------- findOneAndUpdate / leases
await probe('update', 'findOneAndUpdate upsert + returnDocument after', async () => {
  const c = db.collection('fau');
  const r = await c.findOneAndUpdate(
    { _id: 'k1' },
    { $set: { v: 1 }, $setOnInsert: { created: true } },
    { upsert: true, returnDocument: 'after' },
  );
  check(r?.v === 1 && r?.created === true, `returned ${JSON.stringify(r)}`);
  const r2 = await c.findOneAndUpdate({ _id: 'k1' }, { $inc: { v: 1 } }, { returnDocument: 'before' });
  check(r2?.v === 1, `before returned ${JSON.stringify(r2)}`);
  const r3 = await c.findOneAndUpdate(
    { _id: 'k1' },
    { $inc: { v: 1 } },
    { returnDocument: 'after', includeResultMetadata: true },
  );
  check(r3?.value?.v === 3 && r3?.ok === 1, `metadata form ${JSON.stringify(r3)}`);
  return 'returns doc (driver 7 default: document only; includeResultMetadata for {value,ok})';
});

await probe(
  'update',
  'lease: findOneAndUpdate({_id, $or:[{owner},{leaseUntil:{$lte:now}}]}, upsert)',
  async () => {
    const c = db.collection('leases');
    const acquire = async (owner, now, ttl) => {
      try {
        return await c.findOneAndUpdate(
          { _id: 'job', $or: [{ owner }, { leaseUntil: { $lte: now } }] },
          { $set: { owner, leaseUntil: new Date(now.getTime() + ttl) } },
          { upsert: true, returnDocument: 'after' },
        );
      } catch (e) {
        if (e.code === 11000) return null; // held by someone else
        throw e;
      }
    };
    const t = new Date();
    const a1 = await acquire('A', t, 10_000);
    check(a1?.owner === 'A', `A initial acquire: ${JSON.stringify(a1)}`);
    const b1 = await acquire('B', new Date(t.getTime() + 1000), 10_000);
    check(b1 === null, `B stole live lease: ${JSON.stringify(b1)}`);
    const a2 = await acquire('A', new Date(t.getTime() + 2000), 10_000);
    check(a2?.owner === 'A', 'A renew failed');
    const b2 = await acquire('B', new Date(t.getTime() + 60_000), 10_000);
    check(b2?.owner === 'B', `B after expiry: ${JSON.stringify(b2)}`);
    check((await c.countDocuments()) === 1, 'more than one lease doc');
    return 'held lease -> upsert collides on _id -> E11000 (treat as "not acquired")';
  },
);

await probe('update', 'unique-key upsert race (8 parallel upserts on unique non-_id key)', async () => {
  const c = db.collection('upsert_race');
  await c.createIndex({ key: 1 }, { unique: true });
  let dup = 0;
  let ok = 0;
  let lastErr = '';
  for (let round = 0; round < 20; round++) {
    const rs = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? client2 : client)
          .db(dbName)
          .collection('upsert_race')
          .findOneAndUpdate(
            { key: `r${round}` },
            { $inc: { n: 1 } },
            { upsert: true, returnDocument: 'after' },
          ),
      ),
    );
    for (const r of rs) {
      if (r.status === 'fulfilled') ok++;
      else if (r.reason?.code === 11000) {
        dup++;
        lastErr = fmtErr(r.reason);
      } else throw r.reason;
    }
  }
  const docs = await c.find().toArray();
  check(docs.length === 20, `${docs.length} docs for 20 keys`);
  const total = docs.reduce((s, d) => s + d.n, 0);
  check(total === ok, `sum n=${total} but ${ok} successful upserts`);
  return `${ok} ok, ${dup} E11000 of 160${dup ? ` (e.g. ${lastErr.slice(0, 160)})` : ''}; 1 doc/key`;
});

// ---------------------------------------------------------------- update operators
// Each probe gets its own fresh document so one failure cannot cascade.
const upd = db.collection('upd');
let updSeq = 0;
const base = () => ({
  n: 1,
  s: 'a',
  gone: true,
  arr: [1, 2, 3],
  set: ['x'],
  items: [
    { k: 'a', q: 1 },
    { k: 'b', q: 2 },
  ],
});
const updProbe = (name, update, verify, options = {}) =>
  probe('update', name, async () => {
    const _id = ++updSeq;
    await upd.insertOne({ _id, ...base() });
    const r = await upd.updateOne({ _id }, update, options);
    check(r.matchedCount === 1, `matched ${r.matchedCount}`);
    const d = await upd.findOne({ _id });
    verify(d);
    return 'ok';
  });
await probe('update', 'updateMany $inc/$set/$unset', async () => {
  const c = db.collection('upd_many');
  await c.insertMany([
    { n: 1, s: 'a', gone: 1 },
    { n: 5, s: 'b', gone: 1 },
  ]);
  const r = await c.updateMany({}, { $inc: { n: 10 }, $set: { s: 'z' }, $unset: { gone: '' } });
  check(r.matchedCount === 2 && r.modifiedCount === 2, JSON.stringify(r));
  const ds = await c.find().sort({ n: 1 }).toArray();
  check(
    ds[0].n === 11 && ds[1].n === 15 && ds.every((d) => d.s === 'z' && !('gone' in d)),
    JSON.stringify(ds),
  );
  return 'ok';
});
await updProbe('$push {$each:[4,5], $slice:-3}', { $push: { arr: { $each: [4, 5], $slice: -3 } } }, (d) =>
  check(JSON.stringify(d.arr) === '[3,4,5]', `arr=${JSON.stringify(d.arr)} ($slice ignored)`),
);
await updProbe('$push {$each:[9,0], $sort:-1}', { $push: { arr: { $each: [9, 0], $sort: -1 } } }, (d) =>
  check(JSON.stringify(d.arr) === '[9,3,2,1,0]', `arr=${JSON.stringify(d.arr)} ($sort ignored)`),
);
await updProbe('$push {$each:[0], $position:0}', { $push: { arr: { $each: [0], $position: 0 } } }, (d) =>
  check(JSON.stringify(d.arr) === '[0,1,2,3]', `arr=${JSON.stringify(d.arr)} ($position ignored)`),
);
await updProbe('$push single value', { $push: { arr: 4 } }, (d) =>
  check(JSON.stringify(d.arr) === '[1,2,3,4]', JSON.stringify(d.arr)),
);
await updProbe('$pull scalar', { $pull: { arr: 2 } }, (d) =>
  check(JSON.stringify(d.arr) === '[1,3]', JSON.stringify(d.arr)),
);
await updProbe('$pull {$in: [...]}', { $pull: { arr: { $in: [1, 3] } } }, (d) =>
  check(JSON.stringify(d.arr) === '[2]', JSON.stringify(d.arr)),
);
await updProbe('$pull {arr: {$gte: 2}} (condition)', { $pull: { arr: { $gte: 2 } } }, (d) =>
  check(JSON.stringify(d.arr) === '[1]', JSON.stringify(d.arr)),
);
await updProbe('$pull {items: {k: "a"}} (subdoc match)', { $pull: { items: { k: 'a' } } }, (d) =>
  check(d.items.length === 1 && d.items[0].k === 'b', JSON.stringify(d.items)),
);
await updProbe('$pullAll', { $pullAll: { arr: [1, 2] } }, (d) =>
  check(JSON.stringify(d.arr) === '[3]', JSON.stringify(d.arr)),
);
await updProbe('$pop', { $pop: { arr: 1 } }, (d) =>
  check(JSON.stringify(d.arr) === '[1,2]', JSON.stringify(d.arr)),
);
await updProbe('$addToSet {$each} (dedupe)', { $addToSet: { set: { $each: ['x', 'y', 'y'] } } }, (d) =>
  check(JSON.stringify(d.set) === '["x","y"]', JSON.stringify(d.set)),
);
await updProbe(
  'arrayFilters $[el]',
  { $set: { 'items.$[el].q': 99 } },
  (d) => check(d.items[1].q === 99 && d.items[0].q === 1, JSON.stringify(d.items)),
  { arrayFilters: [{ 'el.k': 'b' }] },
);
await probe('update', 'positional $ (filter items.k, set items.$.q)', async () => {
  const _id = ++updSeq;
  await upd.insertOne({ _id, ...base() });
  await upd.updateOne({ _id, 'items.k': 'b' }, { $set: { 'items.$.q': 7 } });
  const d = await upd.findOne({ _id });
  check(d.items[1].q === 7, JSON.stringify(d.items));
  return 'ok';
});
await updProbe('all-positional $[]', { $inc: { 'items.$[].q': 1 } }, (d) =>
  check(d.items[0].q === 2 && d.items[1].q === 3, JSON.stringify(d.items)),
);
await updProbe('dot-path into array index (items.1.q)', { $set: { 'items.1.q': 5 } }, (d) =>
  check(d.items[1].q === 5, JSON.stringify(d.items)),
);
await updProbe(
  'pipeline update [{$set: {m: {$multiply: ["$n", 2]}}}]',
  [{ $set: { m: { $multiply: ['$n', 2] } } }],
  (d) => check(d.m === 2, JSON.stringify(d)),
);
await updProbe('pipeline update [{$set: {x: "$$NOW"}}]', [{ $set: { x: '$$NOW' } }], (d) =>
  check(d.x instanceof Date, JSON.stringify(d)),
);
await updProbe(
  '$max/$min/$currentDate/$rename/$mul',
  { $max: { n: 100 }, $min: { m: 1 }, $currentDate: { at: true }, $rename: { s: 's2' }, $mul: { z: 2 } },
  (d) =>
    check(d.n === 100 && d.m === 1 && d.at instanceof Date && d.s2 === 'a' && d.z === 0, JSON.stringify(d)),
);
await probe('update', 'upsert with $setOnInsert + query fields copied', async () => {
  const r = await upd.updateOne(
    { _id: 'ups', kind: 'k' },
    { $setOnInsert: { c: 1 }, $set: { u: 2 } },
    { upsert: true },
  );
  check(r.upsertedCount === 1 && r.upsertedId === 'ups', JSON.stringify(r));
  const d = await upd.findOne({ _id: 'ups' });
  check(d.kind === 'k' && d.c === 1 && d.u === 2, JSON.stringify(d));
  return 'ok';
});
await probe('update', 'replaceOne', async () => {
  const _id = ++updSeq;
  await upd.insertOne({ _id, ...base() });
  await upd.replaceOne({ _id }, { fresh: true });
  const d = await upd.findOne({ _id });
  check(d.fresh === true && !('n' in d), JSON.stringify(d));
  return 'ok';
});

// ---------------------------------------------------------------- query operators
const qo = db.collection('qops');
await qo.insertMany([
  {
    _id: 1,
    tags: ['a', 'b'],
    items: [
      { k: 'a', q: 1 },
      { k: 'b', q: 5 },
    ],
    n: 1,
    s: 'Alpha',
  },
  { _id: 2, tags: ['b'], items: [{ k: 'a', q: 9 }], n: 2, s: 'beta', opt: null },
  { _id: 3, tags: [], items: [], n: 3, s: 'gamma', opt: 1 },
]);
const qProbe = (name, filter, ids) =>
  probe('query', name, async () => {
    const got = (await qo.find(filter).sort({ _id: 1 }).toArray()).map((d) => d._id);
    check(
      JSON.stringify(got) === JSON.stringify(ids),
      `got ${JSON.stringify(got)} want ${JSON.stringify(ids)}`,
    );
    return 'ok';
  });
await qProbe('$in / $nin / $ne', { n: { $in: [1, 2, 3], $nin: [3], $ne: 2 } }, [1]);
await qProbe('$or + $and', { $or: [{ n: 1 }, { $and: [{ n: { $gt: 1 } }, { s: 'gamma' }] }] }, [1, 3]);
await qProbe('$exists true / null vs missing', { opt: { $exists: true } }, [2, 3]);
await qProbe('{field: null} matches null and missing', { opt: null }, [1, 2]);
await qProbe('$all', { tags: { $all: ['a', 'b'] } }, [1]);
await qProbe('$size', { tags: { $size: 0 } }, [3]);
await qProbe(
  '$elemMatch subdoc, 2 fields {k, q:{$gt}}',
  { items: { $elemMatch: { k: 'a', q: { $gt: 5 } } } },
  [2],
);
await qProbe('$elemMatch subdoc, 1 field {q:{$gt:5}}', { items: { $elemMatch: { q: { $gt: 5 } } } }, [2]);
await qProbe(
  '$elemMatch scalar array {$gt}',
  { n: { $exists: true }, tags: { $elemMatch: { $gt: 'a' } } },
  [1, 2],
);
await qProbe('dot-path into array of subdocs (items.k)', { 'items.k': 'b' }, [1]);
await qProbe('$not + $regex', { s: { $not: /^g/ } }, [1, 2]);
await qProbe('$regex /^a/i', { s: { $regex: '^a', $options: 'i' } }, [1]);
await qProbe('$expr', { $expr: { $gt: ['$n', 1] } }, [2, 3]);
await qProbe('$type', { opt: { $type: 'null' } }, [2]);
await qProbe('$mod', { n: { $mod: [2, 1] } }, [1, 3]);

// ---------------------------------------------------------------- bulk
await probe('bulk', 'bulkWrite ordered (dup in middle stops batch)', async () => {
  const c = db.collection('bulk_o');
  const e = await expectError(() =>
    c.bulkWrite(
      [
        { insertOne: { document: { _id: 1 } } },
        { insertOne: { document: { _id: 1 } } },
        { insertOne: { document: { _id: 2 } } },
      ],
      { ordered: true },
    ),
  );
  const n = await c.countDocuments();
  check(e?.code === 11000 && n === 1, `err=${e ? fmtErr(e) : 'none'} count=${n}`);
  return `MongoBulkWriteError 11000, insertedCount=${e.result?.insertedCount}, 1 doc`;
});
await probe('bulk', 'bulkWrite unordered (dup skipped, rest applied)', async () => {
  const c = db.collection('bulk_u');
  const e = await expectError(() =>
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
  const docs = await c.find().toArray();
  check(e?.code === 11000, `err=${e ? fmtErr(e) : 'none'}`);
  check(docs.length === 1 && docs[0]._id === 2 && docs[0].x === 1, JSON.stringify(docs));
  return `writeErrors=${e.writeErrors?.length ?? '?'}; others applied`;
});
await probe(
  'bulk',
  'bulkWrite mixed ops ok (updateOne upsert, updateMany, deleteMany, replaceOne)',
  async () => {
    const c = db.collection('bulk_mixed');
    const r = await c.bulkWrite([
      { insertOne: { document: { _id: 1, g: 1 } } },
      { updateOne: { filter: { _id: 2 }, update: { $set: { g: 1 } }, upsert: true } },
      { updateMany: { filter: { g: 1 }, update: { $inc: { c: 1 } } } },
      { replaceOne: { filter: { _id: 1 }, replacement: { g: 2 } } },
      { deleteMany: { filter: { g: 2 } } },
    ]);
    check(
      r.insertedCount === 1 && r.upsertedCount === 1 && r.modifiedCount === 3 && r.deletedCount === 1,
      JSON.stringify(r),
    );
    return 'counts correct';
  },
);
await probe('bulk', 'insertMany ordered:false with duplicates', async () => {
  const c = db.collection('im_dup');
  const e = await expectError(() =>
    c.insertMany([{ _id: 1 }, { _id: 1 }, { _id: 2 }, { _id: 2 }, { _id: 3 }], { ordered: false }),
  );
  const n = await c.countDocuments();
  check(e?.code === 11000 && n === 3, `err=${e ? fmtErr(e) : 'none'} count=${n}`);
  return `insertedCount=${e.result?.insertedCount}, writeErrors=${e.writeErrors?.length}; ${fmtErr(e).slice(0, 150)}`;
});
await probe('bulk', 'deleteMany', async () => {
  const c = db.collection('im_dup');
  const r = await c.deleteMany({ _id: { $gte: 2 } });
  check(r.deletedCount === 2, JSON.stringify(r));
  return 'ok';
});

// ---------------------------------------------------------------- aggregation
const ag = db.collection('agg');
await ag.insertMany(
  Array.from({ length: 50 }, (_, i) => ({ _id: i, g: i % 5, v: i, tags: [`t${i % 3}`, 'all'], ref: i % 5 })),
);
const refs = db.collection('agg_refs');
await refs.insertMany(Array.from({ length: 5 }, (_, i) => ({ _id: i, name: `ref${i}` })));
const aggProbe = (name, pipeline, verify) =>
  probe('aggregate', name, async () => {
    const out = await ag.aggregate(pipeline).toArray();
    verify(out);
    return 'ok';
  });
await aggProbe('$match', [{ $match: { g: 1 } }], (o) => check(o.length === 10, o.length));
await aggProbe(
  '$group $sum/$max + $sort + $limit',
  [
    { $group: { _id: '$g', total: { $sum: '$v' }, mx: { $max: '$v' }, n: { $sum: 1 } } },
    { $sort: { total: -1 } },
    { $limit: 2 },
  ],
  (o) =>
    check(
      o.length === 2 && o[0]._id === 4 && o[0].total === 245 && o[0].mx === 49 && o[0].n === 10,
      JSON.stringify(o),
    ),
);
for (const acc of ['$sum', '$avg', '$min', '$max', '$first', '$last', '$push', '$addToSet', '$count']) {
  const spec = acc === '$count' ? {} : acc === '$sum' ? '$v' : '$v';
  await aggProbe(
    `$group accumulator ${acc}`,
    [{ $sort: { _id: 1 } }, { $group: { _id: '$g', x: { [acc]: spec } } }],
    (o) => check(o.length === 5, JSON.stringify(o).slice(0, 80)),
  );
}
await aggProbe(
  '$group with 2 accumulators {total:{$sum:"$v"}, n:{$sum:1}}',
  [{ $match: { g: 0 } }, { $group: { _id: '$g', total: { $sum: '$v' }, n: { $sum: 1 } } }],
  (o) =>
    check(
      o[0]?.total === 225 && o[0]?.n === 10,
      `got ${JSON.stringify(o)} (only first accumulator computed)`,
    ),
);
await aggProbe('$group {_id:null, n:{$sum:1}}', [{ $group: { _id: null, n: { $sum: 1 } } }], (o) =>
  check(o[0]?.n === 50, JSON.stringify(o)),
);
await aggProbe(
  '$project inclusion/exclusion',
  [{ $match: { _id: 3 } }, { $project: { _id: 0, v: 1 } }],
  (o) => check(o.length === 1 && o[0].v === 3 && !('g' in o[0]), JSON.stringify(o)),
);
await aggProbe(
  '$project (computed)',
  [{ $match: { _id: 3 } }, { $project: { _id: 0, w: { $add: ['$v', 1] } } }],
  (o) => check(o.length === 1 && o[0].w === 4, JSON.stringify(o)),
);
await aggProbe('$unwind', [{ $match: { _id: 0 } }, { $unwind: '$tags' }], (o) =>
  check(o.length === 2, o.length),
);
await aggProbe('$count', [{ $match: { g: 2 } }, { $count: 'n' }], (o) =>
  check(o[0]?.n === 10, JSON.stringify(o)),
);
await aggProbe(
  '$lookup (localField/foreignField)',
  [
    { $match: { _id: 7 } },
    { $lookup: { from: 'agg_refs', localField: 'ref', foreignField: '_id', as: 'r' } },
  ],
  (o) => check(o[0]?.r?.[0]?.name === 'ref2', JSON.stringify(o)),
);
await aggProbe(
  '$lookup (pipeline + let)',
  [
    { $match: { _id: 7 } },
    {
      $lookup: {
        from: 'agg_refs',
        let: { r: '$ref' },
        pipeline: [{ $match: { $expr: { $eq: ['$_id', '$$r'] } } }],
        as: 'r',
      },
    },
  ],
  (o) => check(o[0]?.r?.[0]?.name === 'ref2', JSON.stringify(o)),
);
await aggProbe(
  '$facet',
  [{ $facet: { a: [{ $match: { g: 0 } }, { $count: 'n' }], b: [{ $limit: 3 }] } }],
  (o) => check(o[0]?.a?.[0]?.n === 10 && o[0]?.b?.length === 3, JSON.stringify(o)),
);
await aggProbe('$sample', [{ $sample: { size: 5 } }], (o) => check(o.length === 5, o.length));
await aggProbe('$addFields + $skip', [{ $sort: { _id: 1 } }, { $skip: 48 }, { $addFields: { x: 1 } }], (o) =>
  check(o.length === 2 && o[0].x === 1, JSON.stringify(o)),
);
await aggProbe('$sortByCount', [{ $sortByCount: '$g' }], (o) =>
  check(o.length === 5 && o[0].count === 10, JSON.stringify(o)),
);

// ---------------------------------------------------------------- transactions, vector search
await probe('session', 'session.withTransaction', async () => {
  const c = db.collection('tx');
  await c.insertOne({ _id: 0 });
  const session = client.startSession();
  try {
    await session.withTransaction(async () => {
      await c.insertOne({ _id: 1 }, { session });
      await c.updateOne({ _id: 0 }, { $set: { x: 1 } }, { session });
    });
  } finally {
    await session.endSession();
  }
  const n = await c.countDocuments();
  check(n === 2, `count ${n}`);
  return 'committed';
});
await probe('session', 'transaction abort rolls back', async () => {
  const c = db.collection('tx2');
  const session = client.startSession();
  try {
    session.startTransaction();
    await c.insertOne({ _id: 1 }, { session });
    await session.abortTransaction();
  } finally {
    await session.endSession();
  }
  const n = await c.countDocuments();
  check(n === 0, `abort left ${n} docs (no real transaction)`);
  return 'rolled back';
});
await probe('session', 'explicit session without transaction (causal consistency)', async () => {
  const c = db.collection('sess');
  const session = client.startSession({ causalConsistency: true });
  try {
    await c.insertOne({ _id: 1 }, { session });
    const d = await c.findOne({ _id: 1 }, { session });
    check(d?._id === 1, 'read-your-write');
  } finally {
    await session.endSession();
  }
  return 'ok';
});
await probe('search', '$vectorSearch aggregation stage', async () => {
  await ag
    .aggregate([
      { $vectorSearch: { index: 'vec', path: 'emb', queryVector: [0.1, 0.2], numCandidates: 10, limit: 2 } },
    ])
    .toArray();
  return 'accepted';
});
await probe('search', 'createSearchIndex (type vectorSearch)', async () => {
  await ag.createSearchIndex({
    name: 'vec',
    type: 'vectorSearch',
    definition: { fields: [{ type: 'vector', path: 'emb', numDimensions: 2, similarity: 'cosine' }] },
  });
  return 'accepted';
});

// ---------------------------------------------------------------- data types
const dt = db.collection('types');
await probe('types', 'Binary subtype 0 holding Float32Array round trip', async () => {
  const f = new Float32Array([0.1, -2.5, 3.25, Number.MIN_VALUE, 1e30]);
  await dt.insertOne({ _id: 'bin', emb: new Binary(Buffer.from(f.buffer, f.byteOffset, f.byteLength), 0) });
  const d = await dt.findOne({ _id: 'bin' });
  check(
    d.emb instanceof Binary && d.emb.sub_type === 0,
    `type ${d.emb?.constructor?.name} sub ${d.emb?.sub_type}`,
  );
  const b = d.emb.buffer;
  const back = new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  check(
    back.length === 5 && back.every((x, i) => x === f[i] || (Number.isNaN(x) && Number.isNaN(f[i]))),
    `${back}`,
  );
  return `${b.byteLength} bytes, bit-exact`;
});
await probe('types', 'Binary subtype 9 (BSON vector, Binary.fromFloat32Array)', async () => {
  if (typeof Binary.fromFloat32Array !== 'function') throw new Error('driver lacks Binary.fromFloat32Array');
  const f = new Float32Array([0.5, 1.5]);
  await dt.insertOne({ _id: 'vec9', emb: Binary.fromFloat32Array(f) });
  const d = await dt.findOne({ _id: 'vec9' });
  check(d.emb.sub_type === 9, `sub_type ${d.emb.sub_type}`);
  const back = d.emb.toFloat32Array();
  check(back[0] === 0.5 && back[1] === 1.5, `${back}`);
  return 'ok';
});
await probe('types', 'Date round trip (ms precision, range queries)', async () => {
  const t = new Date('2024-02-29T12:34:56.789Z');
  await dt.insertOne({ _id: 'date', at: t });
  const d = await dt.findOne({
    _id: 'date',
    at: { $gte: new Date(t.getTime() - 1), $lt: new Date(t.getTime() + 1) },
  });
  check(d?.at instanceof Date && d.at.getTime() === t.getTime(), JSON.stringify(d));
  return 'ok';
});
await probe('types', 'Long/int64 round trip (2^53+1, promoteLongs:false) and $inc on Long', async () => {
  const big = Long.fromString('9007199254740993');
  await dt.insertOne({ _id: 'long', v: big, small: Long.fromNumber(5) });
  const d = await dt.findOne({ _id: 'long' }, { promoteLongs: false });
  check(d.v instanceof Long && d.v.toString() === '9007199254740993', `${d.v}`);
  await dt.updateOne({ _id: 'long' }, { $inc: { v: Long.fromNumber(1) } });
  const d2 = await dt.findOne({ _id: 'long' }, { useBigInt64: true });
  check(d2.v === 9007199254740994n, `${d2.v}`);
  const d3 = await dt.findOne({ _id: 'long' });
  check(typeof d3.small === 'number', `default small long → ${typeof d3.small}`);
  return 'exact; default decode promotes to number (lossy > 2^53), use useBigInt64';
});
await probe('types', 'insert doc with top-level key "$bad" (expect rejected)', async () => {
  const e = await expectError(() => dt.insertOne({ _id: 'dollar', $bad: 1 }));
  check(e, 'accepted');
  return `rejected: ${fmtErr(e)}`;
});
await probe('types', 'insert doc with nested key "$gt" in object value (expect rejected/inert)', async () => {
  const e = await expectError(() => dt.insertOne({ _id: 'dollar2', q: { $gt: '' } }));
  if (e) return `rejected: ${fmtErr(e)}`;
  const d = await dt.findOne({ _id: 'dollar2' });
  return `accepted and stored: ${JSON.stringify(d)}`;
});
await probe('types', 'insert doc with key containing "." (a.b)', async () => {
  const e = await expectError(() => dt.insertOne({ _id: 'dot', 'a.b': 1 }));
  if (e) return `rejected: ${fmtErr(e)}`;
  const d = await dt.findOne({ _id: 'dot' });
  return `accepted (MongoDB ≥5 also accepts): ${JSON.stringify(d)}`;
});
await probe('types', 'driver checkKeys:true rejects $/. keys client-side', async () => {
  const e1 = await expectError(() => dt.insertOne({ _id: 'ck1', $x: 1 }, { checkKeys: true }));
  const e2 = await expectError(() => dt.insertOne({ _id: 'ck2', 'a.b': 1 }, { checkKeys: true }));
  check(e1 && e2, 'accepted');
  return `${fmtErr(e1)} / ${fmtErr(e2)}`;
});
await probe('types', 'string value \'{"$gt": ""}\' stored and matched as plain data', async () => {
  const s = '{"$gt": ""}';
  await dt.insertOne({ _id: 'str', s });
  const d = await dt.findOne({ s });
  check(d?._id === 'str' && d.s === s, JSON.stringify(d));
  const n = await dt.countDocuments({ s: { $eq: s } });
  check(n === 1, `$eq count ${n}`);
  return 'ok';
});
await probe('types', 'filter object value {s: {$gt: ""}} is an operator (injection vector)', async () => {
  const n = await dt.countDocuments({ s: { $gt: '' } });
  return `matched ${n} doc(s): object values are operators; callers must use $eq or validate`;
});
await probe('types', 'unicode / emoji strings, subdocs in arrays', async () => {
  await dt.insertOne({ _id: 'misc', u: 'zażółć 🧊 — 日本', objs: [{ a: null }, { b: [1, 2] }] });
  const d = await dt.findOne({ _id: 'misc' });
  check(
    d.u === 'zażółć 🧊 — 日本' && JSON.stringify(d.objs) === '[{"a":null},{"b":[1,2]}]',
    JSON.stringify(d),
  );
  return 'ok';
});
await probe('types', 'nested arrays [[1,2],[3]] (e.g. array of vectors)', async () => {
  await dt.insertOne({ _id: 'nested', m: [[1, 2], [3]] });
  const d = await dt.findOne({ _id: 'nested' });
  check(JSON.stringify(d.m) === '[[1,2],[3]]', JSON.stringify(d));
  return 'ok';
});
await probe('types', 'array of numbers (plain float vector, 384 dims) round trip', async () => {
  const v = Array.from({ length: 384 }, (_, i) => Math.sin(i) / 3);
  await dt.insertOne({ _id: 'vecarr', v });
  const d = await dt.findOne({ _id: 'vecarr' });
  check(d.v.length === 384 && d.v.every((x, i) => x === v[i]), 'mismatch');
  return 'ok (doubles, exact)';
});
await probe('types', 'Infinity / -0 doubles', async () => {
  await dt.insertOne({ _id: 'inf', b: Number.POSITIVE_INFINITY, c: -0 });
  const d = await dt.findOne({ _id: 'inf' });
  check(d.b === Number.POSITIVE_INFINITY && Object.is(d.c, -0), JSON.stringify([d.b, Object.is(d.c, -0)]));
  return 'ok';
});
await probe('types', 'NaN double (insert)', async () => {
  await dt.insertOne({ _id: 'nan', a: Number.NaN });
  const d = await dt.findOne({ _id: 'nan' });
  check(Number.isNaN(d.a), `${d.a}`);
  return 'ok';
});

// ---------------------------------------------------------------- misc collection ops
const misc = db.collection('misc');
await misc.insertMany(
  Array.from({ length: 30 }, (_, i) => ({ _id: i, k: i % 4, name: `n${String(i).padStart(2, '0')}` })),
);
await probe('misc', 'countDocuments(filter)', async () => {
  const n = await misc.countDocuments({ k: 1 });
  check(n === 8, n);
  return 'ok';
});
await probe('misc', 'estimatedDocumentCount', async () => {
  const n = await misc.estimatedDocumentCount();
  check(n === 30, n);
  return 'ok';
});
await probe('misc', 'distinct', async () => {
  const v = await misc.distinct('k');
  check(JSON.stringify([...v].sort()) === '[0,1,2,3]', JSON.stringify(v));
  return 'ok';
});
await probe('misc', 'find().sort().skip().limit() + projection', async () => {
  const v = await misc
    .find({}, { projection: { name: 1, _id: 0 } })
    .sort({ name: -1 })
    .skip(2)
    .limit(3)
    .toArray();
  check(JSON.stringify(v.map((d) => d.name)) === '["n27","n26","n25"]', JSON.stringify(v));
  return 'ok';
});
await probe('misc', 'find with compound sort {k:1,_id:-1} + cursor batching (batchSize 7)', async () => {
  const v = await misc.find({}).sort({ k: 1, _id: -1 }).batchSize(7).toArray();
  check(v.length === 30 && v[0]._id === 28 && v[29]._id === 3, `${v[0]?._id},${v[29]?._id}`);
  return 'ok';
});
await probe('misc', 'listCollections', async () => {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  check(names.includes('misc') && names.includes('agg'), JSON.stringify(names));
  return `${names.length} collections`;
});
await probe('misc', 'collection rename + drop', async () => {
  await db.collection('to_rename').insertOne({ x: 1 });
  await db.renameCollection('to_rename', 'renamed');
  check((await db.collection('renamed').countDocuments()) === 1, 'renamed empty');
  check(await db.collection('renamed').drop(), 'drop false');
  return 'ok';
});
await probe('misc', 'createCollection with validator ($jsonSchema)', async () => {
  await db.createCollection('validated', {
    validator: { $jsonSchema: { bsonType: 'object', required: ['a'] } },
  });
  const e = await expectError(() => db.collection('validated').insertOne({ b: 1 }));
  check(e, 'invalid doc accepted');
  return `rejects invalid: ${fmtErr(e).slice(0, 80)}`;
});
await probe('misc', 'change streams (watch)', async () => {
  const cs = misc.watch();
  try {
    await cs.tryNext(); // opens the change stream; null on a real replica set
    await misc.insertOne({ _id: 1000 });
    const ev = await cs.next();
    check(ev?.operationType === 'insert', JSON.stringify(ev));
  } finally {
    await cs.close();
  }
  return 'opened';
});

// ---------------------------------------------------------------- concurrency
await probe('concurrency', 'two clients CAS-grant same doc, 300 rounds: no double grant', async () => {
  const name = 'cas';
  const ca = client.db(dbName).collection(name);
  const cb = client2.db(dbName).collection(name);
  await ca.insertOne({ _id: 'lock', holder: null, ver: 0 });
  let double = 0;
  let none = 0;
  for (let round = 0; round < 300; round++) {
    const grab = (c, who) =>
      c.findOneAndUpdate(
        { _id: 'lock', holder: null, ver: round },
        { $set: { holder: who }, $inc: { ver: 1 } },
        { returnDocument: 'after' },
      );
    const [ra, rb] = await Promise.all([grab(ca, 'A'), grab(cb, 'B')]);
    const grants = (ra ? 1 : 0) + (rb ? 1 : 0);
    if (grants > 1) double++;
    if (grants === 0) none++;
    await ca.updateOne({ _id: 'lock' }, { $set: { holder: null } });
  }
  const d = await ca.findOne({ _id: 'lock' });
  check(double === 0 && none === 0 && d.ver === 300, `double=${double} none=${none} ver=${d.ver}`);
  return 'exactly one grant per round';
});
await probe('concurrency', 'two clients x 4 parallel $inc x 250: no lost update', async () => {
  const ca = client.db(dbName).collection('ctr');
  const cb = client2.db(dbName).collection('ctr');
  await ca.insertOne({ _id: 'c', n: 0 });
  const worker = async (c) => {
    for (let i = 0; i < 250; i++) await c.updateOne({ _id: 'c' }, { $inc: { n: 1 } });
  };
  await Promise.all([worker(ca), worker(ca), worker(cb), worker(cb)]);
  const d = await ca.findOne({ _id: 'c' });
  check(d.n === 1000, `n=${d.n}`);
  return 'n=1000';
});
await probe(
  'concurrency',
  'read-modify-write with version CAS (updateOne {_id, ver}) 2 clients x 200',
  async () => {
    const ca = client.db(dbName).collection('rmw');
    const cb = client2.db(dbName).collection('rmw');
    await ca.insertOne({ _id: 'd', ver: 0, log: [] });
    let conflicts = 0;
    const worker = async (c, who) => {
      for (let i = 0; i < 200; i++) {
        for (;;) {
          const cur = await c.findOne({ _id: 'd' });
          const r = await c.updateOne({ _id: 'd', ver: cur.ver }, { $set: { ver: cur.ver + 1, last: who } });
          if (r.modifiedCount === 1) break;
          conflicts++;
        }
      }
    };
    await Promise.all([worker(ca, 'A'), worker(cb, 'B')]);
    const d = await ca.findOne({ _id: 'd' });
    check(d.ver === 400, `ver=${d.ver}`);
    return `ver=400 (${conflicts} CAS conflicts retried)`;
  },
);

const race = async (rounds, fnA, fnB) => {
  const out = [];
  for (let round = 0; round < rounds; round++) {
    out.push(await Promise.allSettled([fnA(round), fnB(round)]));
  }
  return out;
};
await probe(
  'concurrency',
  '$or-lease findOneAndUpdate upsert on EXPIRED lease, 2 clients x 200 rounds',
  async () => {
    const ca = client.db(dbName).collection('lease_race');
    const cb = client2.db(dbName).collection('lease_race');
    const acquire = async (c, owner, now) => {
      try {
        return await c.findOneAndUpdate(
          { _id: 'job', $or: [{ owner }, { leaseUntil: { $lte: now } }] },
          { $set: { owner, leaseUntil: new Date(now.getTime() + 1000) } },
          { upsert: true, returnDocument: 'after' },
        );
      } catch (e) {
        if (e.code === 11000) return null;
        throw e;
      }
    };
    let double = 0;
    for (let r = 0; r < 200; r++) {
      await ca.updateOne({ _id: 'job' }, { $set: { owner: 'C', leaseUntil: new Date(0) } }, { upsert: true });
      const now = new Date();
      const [x, y] = await Promise.all([acquire(ca, 'A', now), acquire(cb, 'B', now)]);
      if (x && y) double++;
    }
    check(double === 0, `${double}/200 rounds granted the lease to both A and B`);
    return 'one winner per round';
  },
);
await probe('concurrency', 'two clients insertOne same _id, 300 rounds: exactly one wins', async () => {
  const ca = client.db(dbName).collection('ins_race');
  const cb = client2.db(dbName).collection('ins_race');
  const rs = await race(
    300,
    (r) => ca.insertOne({ _id: `r${r}`, by: 'A' }),
    (r) => cb.insertOne({ _id: `r${r}`, by: 'B' }),
  );
  const bad = rs.filter((pair) => pair.filter((x) => x.status === 'fulfilled').length !== 1).length;
  const other = rs.flat().filter((x) => x.status === 'rejected' && x.reason?.code !== 11000);
  check(bad === 0 && other.length === 0, `bad rounds ${bad}, non-11000 errors ${other.length}`);
  return 'loser always gets E11000';
});
await probe(
  'concurrency',
  'two clients deleteOne same _id, 300 rounds: exactly one deletedCount=1',
  async () => {
    const ca = client.db(dbName).collection('del_race');
    const cb = client2.db(dbName).collection('del_race');
    await ca.insertMany(Array.from({ length: 300 }, (_, r) => ({ _id: `r${r}` })));
    const rs = await race(
      300,
      (r) => ca.deleteOne({ _id: `r${r}` }),
      (r) => cb.deleteOne({ _id: `r${r}` }),
    );
    const bad = rs.filter((p) => p.reduce((s, x) => s + (x.value?.deletedCount ?? 0), 0) !== 1).length;
    check(bad === 0, `${bad} rounds with != 1 deletion credited`);
    return 'claim-by-delete is atomic';
  },
);
await probe(
  'concurrency',
  'two clients findOneAndDelete same _id, 300 rounds: exactly one gets the doc',
  async () => {
    const ca = client.db(dbName).collection('fad_race');
    const cb = client2.db(dbName).collection('fad_race');
    await ca.insertMany(Array.from({ length: 300 }, (_, r) => ({ _id: `r${r}` })));
    const rs = await race(
      300,
      (r) => ca.findOneAndDelete({ _id: `r${r}` }),
      (r) => cb.findOneAndDelete({ _id: `r${r}` }),
    );
    const bad = rs.filter((p) => p.filter((x) => x.value).length !== 1).length;
    check(bad === 0, `${bad}/300 rounds where both (or neither) got the doc`);
    return 'ok';
  },
);
await probe(
  'concurrency',
  'generation lease (insert {_id: res#gen}) 2 clients x 300 rounds: no double grant',
  async () => {
    const ca = client.db(dbName).collection('lease_gen');
    const cb = client2.db(dbName).collection('lease_gen');
    const tryAcquire = async (c, who, gen) => {
      try {
        await c.insertOne({
          _id: `job#${gen}`,
          res: 'job',
          gen,
          owner: who,
          leaseUntil: new Date(Date.now() + 1000),
        });
        return true;
      } catch (e) {
        if (e.code === 11000) return false;
        throw e;
      }
    };
    const rs = await race(
      300,
      (r) => tryAcquire(ca, 'A', r),
      (r) => tryAcquire(cb, 'B', r),
    );
    const bad = rs.filter((p) => p.filter((x) => x.value === true).length !== 1).length;
    check(bad === 0, `${bad} rounds without exactly one grant`);
    return 'exactly one grant per generation';
  },
);
await probe(
  'concurrency',
  'concurrent updates to DIFFERENT fields of one doc (2 clients x 200)',
  async () => {
    const ca = client.db(dbName).collection('fields');
    const cb = client2.db(dbName).collection('fields');
    await ca.insertOne({ _id: 'f', a: 0, b: 0 });
    const w = async (c, f) => {
      for (let i = 1; i <= 200; i++) await c.updateOne({ _id: 'f' }, { $set: { [f]: i } });
    };
    await Promise.all([w(ca, 'a'), w(cb, 'b')]);
    const d = await ca.findOne({ _id: 'f' });
    check(d.a === 200 && d.b === 200, `a=${d.a} b=${d.b} (whole-document last-writer-wins)`);
    return 'both fields final';
  },
);

// ---------------------------------------------------------------- size / throughput
await probe('perf', 'large document ~1 MB string', async () => {
  const c = db.collection('large');
  const s = 'x'.repeat(1024 * 1024);
  await c.insertOne({ _id: 1, s });
  const d = await c.findOne({ _id: 1 });
  check(d.s.length === s.length, `${d.s.length}`);
  return 'ok';
});
await probe('perf', 'large document ~15 MB string', async () => {
  const c = db.collection('large');
  const s = 'y'.repeat(15 * 1024 * 1024);
  await c.insertOne({ _id: 2, s });
  const d = await c.findOne({ _id: 2 });
  check(d.s.length === s.length, `${d.s.length}`);
  return 'ok';
});
await probe('perf', 'document > 16 MiB (expect rejected)', async () => {
  const c = db.collection('large');
  const e = await expectError(() => c.insertOne({ _id: 3, s: 'z'.repeat(17 * 1024 * 1024) }));
  check(e, 'accepted');
  return `rejected: ${fmtErr(e).slice(0, 120)}`;
});
const perf = {};
await probe('perf', 'insertMany 10k small docs', async () => {
  const c = db.collection('bulk10k');
  const docs = Array.from({ length: 10_000 }, (_, i) => ({
    key: `k${i}`,
    n: i,
    grp: i % 100,
    text: `doc ${i}`,
  }));
  const t0 = performance.now();
  await c.insertMany(docs);
  const ms = performance.now() - t0;
  perf.insertMany10kMs = Math.round(ms);
  return `${Math.round(ms)} ms (${Math.round(10_000 / (ms / 1000))} docs/s)`;
});
await probe('perf', 'insertOne x 1000 sequential', async () => {
  const c = db.collection('seq1k');
  const t0 = performance.now();
  for (let i = 0; i < 1000; i++) await c.insertOne({ i });
  const ms = performance.now() - t0;
  perf.insertOne1kMs = Math.round(ms);
  return `${(ms / 1000).toFixed(2)} ms/insert`;
});
const latency = async (fn, n) => {
  const ts = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    ts.push(performance.now() - t0);
  }
  ts.sort((a, b) => a - b);
  const q = (p) => ts[Math.min(ts.length - 1, Math.floor(p * ts.length))].toFixed(2);
  return `p50 ${q(0.5)} ms, p95 ${q(0.95)} ms`;
};
await probe('perf', 'find by unindexed field over 10k (50 queries)', async () => {
  const c = db.collection('bulk10k');
  return await latency(async (i) => {
    const d = await c.findOne({ key: `k${(i * 7919) % 10_000}` });
    check(d, 'missing');
  }, 50);
});
await probe('perf', 'find by indexed field over 10k (50 queries)', async () => {
  const c = db.collection('bulk10k');
  await c.createIndex({ key: 1 }, { unique: true });
  const r = await latency(async (i) => {
    const d = await c.findOne({ key: `k${(i * 7919) % 10_000}` });
    check(d, 'missing');
  }, 50);
  const ex = await c.find({ key: 'k5' }).explain();
  const plan = ex.queryPlanner?.winningPlan
    ? JSON.stringify(ex.queryPlanner.winningPlan).slice(0, 120)
    : JSON.stringify({
        plan: ex.queryPlanner,
        filterPushdown: ex.filterPushdown,
        sortPushdown: ex.sortPushdown,
      });
  return `${r}; explain: ${plan}`;
});
await probe('perf', 'find by _id over 10k (300 queries)', async () => {
  const c = db.collection('bulk10k');
  const ids = (
    await c
      .find({}, { projection: { _id: 1 } })
      .limit(300)
      .toArray()
  ).map((d) => d._id);
  return await latency(async (i) => {
    const d = await c.findOne({ _id: ids[i] });
    check(d, 'missing');
  }, 300);
});
await probe('perf', 'find {grp: x} sort {n:-1} limit 10 with index {grp:1,n:-1} (50 queries)', async () => {
  const c = db.collection('bulk10k');
  await c.createIndex({ grp: 1, n: -1 });
  return await latency(async (i) => {
    const d = await c
      .find({ grp: i % 100 })
      .sort({ n: -1 })
      .limit(10)
      .toArray();
    check(d.length === 10, 'short');
  }, 50);
});

// ---------------------------------------------------------------- TTL expiry (slow, last)
if (ttlWaitSec > 0 && results.find((r) => r.name === 'TTL index expireAfterSeconds')?.ok) {
  await probe('index', `TTL expiry actually deletes (waited up to ${ttlWaitSec}s)`, async () => {
    const c = db.collection('idx_ttl');
    const deadline = Date.now() + ttlWaitSec * 1000;
    while (Date.now() < deadline) {
      if ((await c.countDocuments()) === 0) return 'expired doc removed';
      await new Promise((r) => setTimeout(r, 2000));
    }
    throw new Error(`expired doc still present after ${ttlWaitSec}s`);
  });
}

await probe('misc', 'dropDatabase', async () => {
  const ok = await db.dropDatabase();
  const dbs = (await client.db('admin').admin().listDatabases()).databases.map((d) => d.name);
  check(ok && !dbs.includes(dbName), JSON.stringify(dbs));
  return 'ok';
});

await client.close();
await client2.close();

const report = { url, at: new Date().toISOString(), identity, perf, results };
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(report, null, 2)}\n`);
const esc = (s) => String(s).replaceAll('|', '\\|').replaceAll('\n', ' ');
console.log(`# ${url} — buildInfo.version ${identity.buildInfo.version}`);
console.log(`hello keys: ${identity.helloKeys.join(', ')}`);
console.log(`buildInfo keys: ${identity.buildInfoKeys.join(', ')}`);
console.log(`buildInfo: ${JSON.stringify(identity.buildInfo)}`);
console.log(`hello: ${JSON.stringify(identity.hello)}\n`);
console.log('| area | probe | result | detail / error |');
console.log('| --- | --- | --- | --- |');
for (const r of results) {
  console.log(`| ${r.area} | ${esc(r.name)} | ${r.ok ? 'OK' : 'FAIL'} | ${esc(r.ok ? r.detail : r.error)} |`);
}
const failed = results.filter((r) => !r.ok).length;
console.log(`\n${results.length - failed} ok, ${failed} not supported/incorrect`);

import { check, expectError, fmtErr, probe, results } from './harness.mjs';

// ---------------------------------------------------------------- indexes
export async function probeIndexes({ db }) {
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
}

// ---------------------------------------------------------------- TTL expiry (slow, last)
export async function probeTtlExpiry({ db }, ttlWaitSec) {
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
}

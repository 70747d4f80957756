import { createRequire } from 'node:module';
import { check, expectError, fmtErr, probe } from './harness.mjs';

// The `mongodb` driver that packages/store-mongo depends on (the same module the entry script loads).
const require = createRequire(new URL('../../packages/store-mongo/package.json', import.meta.url));
const { Binary, Long } = require('mongodb');

// ---------------------------------------------------------------- data types
export async function probeTypes({ db }) {
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
    if (typeof Binary.fromFloat32Array !== 'function')
      throw new Error('driver lacks Binary.fromFloat32Array');
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
  await probe(
    'types',
    'insert doc with nested key "$gt" in object value (expect rejected/inert)',
    async () => {
      const e = await expectError(() => dt.insertOne({ _id: 'dollar2', q: { $gt: '' } }));
      if (e) return `rejected: ${fmtErr(e)}`;
      const d = await dt.findOne({ _id: 'dollar2' });
      return `accepted and stored: ${JSON.stringify(d)}`;
    },
  );
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
}

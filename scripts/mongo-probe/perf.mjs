import { performance } from 'node:perf_hooks';
import { check, expectError, fmtErr, probe } from './harness.mjs';

// ---------------------------------------------------------------- size / throughput
export async function probePerf({ db }) {
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
  return perf;
}

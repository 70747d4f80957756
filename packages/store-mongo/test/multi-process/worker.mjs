// A queue worker: loops dueKeys → claim → (work) → complete → releaseLease until the observer is
// done and nothing is pending or claimed. Records every completed message id and the wall-clock
// interval during which it held each key. Prints one JSON line on stdout.
import { createMongoStore } from '@permafrost/store-mongo';

const { MONGO_URL: url, PF_DB: dbName, PF_GUILD: guildId, PF_OWNER: owner } = process.env;
const maxMs = Number(process.env.PF_MAX_MS ?? 120_000);
const store = createMongoStore({ url, dbName });
await store.setup();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const completed = [];
const intervals = [];
const shortfalls = [];
let claims = 0;
let locked = 0;
const deadline = Date.now() + maxMs;
while (Date.now() < deadline) {
  const now = new Date();
  if (Math.random() < 0.1) await store.queue.releaseExpired(now);
  const keys = await store.queue.dueKeys({
    now,
    batchSize: 5,
    olderThan: new Date(now.getTime() - 200),
    limit: 50,
    guildId,
  });
  if (keys.length === 0) {
    if ((await store.cursors.getCursor(guildId, 'multi-process')) === 'enqueued') {
      const c = await store.queue.counts(guildId);
      if (c.pending === 0 && c.claimed === 0) break;
    }
    await sleep(20);
    continue;
  }
  keys.sort(() => Math.random() - 0.5);
  for (const key of keys) {
    const res = await store.queue.claim({ key, owner, now: new Date(), leaseMs: 60_000, limit: 50 });
    if (res.lockedByOther) {
      locked++;
      continue;
    }
    const start = Date.now();
    const ids = res.messages.map((m) => m.messageId);
    if (ids.length > 0) {
      claims++;
      await sleep(2 + Math.random() * 8);
      const n = await store.queue.complete(guildId, ids, owner, new Date());
      if (n === ids.length) completed.push(...ids);
      else shortfalls.push({ ids, n });
    }
    intervals.push({ key: key.subjectKey, start, end: Date.now() });
    await store.queue.releaseLease(key, owner);
  }
}
process.stdout.write(
  `${JSON.stringify({ role: 'worker', owner, completed, intervals, shortfalls, claims, locked, timedOut: Date.now() >= deadline })}\n`,
);
await store.close();

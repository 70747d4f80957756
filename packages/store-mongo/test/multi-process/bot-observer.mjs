// A bot process that only observes (workers off): posts phase 1, waits until a worker process has
// opted member "opt" out, then posts phase 2 (opt's messages must come back ignored/opted_out).
// Also races the worker processes for reply claims. Uses the BUILT packages. Prints one JSON line.
import { createMemory } from '@permafrost/core';
import { createMongoStore } from '@permafrost/store-mongo';
import { claimAll, coordination, message, waitForCursor } from './bot-common.mjs';

const { url, guildId, store } = coordination();
const perPhase = Number(process.env.PF_PER_PHASE ?? 60);
const memory = createMemory(
  { storage: url, llm: null, embeddings: 'hashing', workers: { enabled: false } },
  { store: createMongoStore({ url }) },
);
const receipts = { phase1: {}, phase2: {}, optPhase2: {} };
const count = (bucket, r) => {
  const k = r.status === 'accepted' ? 'accepted' : `${r.status}:${r.reason}`;
  bucket[k] = (bucket[k] ?? 0) + 1;
};
for (let j = 0; j < perPhase; j++) count(receipts.phase1, await memory.observe(message(guildId, j)));
await store.cursors.setCursor(guildId, 'phase', '1-posted');
const claims = await claimAll(memory, guildId);
await waitForCursor(store, guildId, 'optout', 'set', 200_000);
for (let j = perPhase; j < 2 * perPhase; j++) {
  const m = message(guildId, j);
  count(m.authorId === 'opt' ? receipts.optPhase2 : receipts.phase2, await memory.observe(m));
}
await store.cursors.setCursor(guildId, 'phase', 'done');
process.stdout.write(`${JSON.stringify({ role: 'observer', receipts, claims })}\n`);
await memory.close({ drain: false });
await store.close();

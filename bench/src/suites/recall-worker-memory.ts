/**
 * The recall worker's memory and the store passes around its timed queries: the memory every pass
 * opens, the two operations it asks (promptContext, recall), and the per-call store profile and
 * store-call waves of those operations. No side effects on import: the worker entry
 * (recall-worker.ts) registers the store schemes before calling these.
 */
import { createMemory, type MemoryStore } from '@permafrost/core';
import { type StoreWaveCount, StoreWaves } from '@permafrost/core/testing';
import type { Question } from '../community.js';
import { type Backend, GUILD, openStore, storageUrl } from '../harness/seed.js';
import { profileStore, profileTable } from '../harness/store-profile.js';

/** The memory every pass queries: hashing embeddings, no model, no workers, guild-wide reads. */
export function openMemory(backend: Backend, url: string, store?: MemoryStore) {
  return createMemory(
    {
      storage: storageUrl(backend, url),
      access: { requireAudience: false },
      llm: null,
      embeddings: 'hashing',
      workers: { enabled: false },
    },
    store ? { store } : {},
  );
}

export type BenchMemory = ReturnType<typeof openMemory>;

/** A question as promptContext (the asker, the members it mentions). */
export const askPromptContext = (memory: BenchMemory, q: Question) =>
  memory.promptContext({ guildId: GUILD, askerId: q.askerId, text: q.text, mentionedIds: [...q.mentioned] });

/** The same question as a recall over the asker, the mentioned members and the server. */
export const askRecall = (memory: BenchMemory, q: Question) =>
  memory.recall({
    guildId: GUILD,
    text: q.text,
    subjectIds: [q.askerId, ...q.mentioned],
    includeServer: true,
  });

/** promptContext through a store that times every port call. */
export async function profilePass(
  backend: Backend,
  location: string,
  warm: readonly Question[],
  profQs: readonly Question[],
) {
  const profiled = profileStore(await openStore(backend, location));
  const pm = openMemory(backend, location, profiled.store);
  for (const q of warm) await askPromptContext(pm, q);
  profiled.calls.clear();
  const tp = performance.now();
  for (const q of profQs) await askPromptContext(pm, q);
  const meanPromptContextMs = (performance.now() - tp) / profQs.length;
  await pm.close({ drain: false });
  return { requests: profQs.length, meanPromptContextMs, calls: profileTable(profiled, profQs.length) };
}

/**
 * Store-call waves of promptContext and recall (`StoreWaves` of @permafrost/core/testing): the critical path in store
 * calls, which a store answering each call in one round trip pays in latency. Any backend.
 */
export async function wavesPass(
  backend: Backend,
  location: string,
  warm: readonly Question[],
  qs: readonly Question[],
) {
  const counter = new StoreWaves(await openStore(backend, location));
  const memory = openMemory(backend, location, counter.store);
  const pc: StoreWaveCount[] = [];
  const rc: StoreWaveCount[] = [];
  try {
    for (const q of warm.slice(0, 2)) await askPromptContext(memory, q);
    for (const q of qs) {
      pc.push(await counter.measure(() => askPromptContext(memory, q)));
      rc.push(await counter.measure(() => askRecall(memory, q)));
    }
  } finally {
    await memory.close({ drain: false });
  }
  const stat = (xs: readonly StoreWaveCount[]) => ({
    operations: xs.length,
    meanCalls: xs.reduce((n, c) => n + c.calls, 0) / Math.max(1, xs.length),
    meanWaves: xs.reduce((n, c) => n + c.waves, 0) / Math.max(1, xs.length),
    maxWaves: Math.max(0, ...xs.map((c) => c.waves)),
  });
  return { promptContext: stat(pc), recall: stat(rc) };
}

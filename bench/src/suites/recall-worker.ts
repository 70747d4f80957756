/**
 * Child process of the recall and context suites (one per size, so peak RSS is per size):
 *
 *   node recall-worker.js seed  --backend=sqlite --location=/tmp/x.db --size=10000
 *   node recall-worker.js query --backend=sqlite --location=/tmp/x.db --queries=300 --reps=3
 *   node recall-worker.js context --backend=sqlite --location=/tmp/x.db --queries=300 --reps=3
 *
 * Prints one JSON line.
 */
import '@permafrost/store-sqlite';
import { createMemory, type MemoryStore, type MessageEventInput } from '@permafrost/core';
import { type StoreWaveCount, StoreWaves } from '@permafrost/core/testing';
import { chatLine, makeMembers, makeQuestions, type Question } from '../community.js';
import { replyAsJsonChild } from '../harness/child.js';
import { parseArgs, peakRssMiB, rssBreakdownMiB, rssMiB } from '../harness/env.js';
import { type Backend, GUILD, openStore, SEED_CHANNELS, seedGuild, storageUrl } from '../harness/seed.js';
import { profileStore, profileTable } from '../harness/store-profile.js';
import { median, timed } from '../harness/suite.js';
import { prng, summarize } from '../stats.js';

const MEMBERS = 200;
const CHANNEL = '1200000000000000001';

const args = parseArgs(process.argv.slice(2));
const mode = args.get('_0');
const backend = (args.get('backend') ?? 'sqlite') as Backend;
const location = args.get('location') ?? '';
const members = makeMembers(MEMBERS);
// The Mongo store registers its URL scheme when imported. createMemory would otherwise look for it
// from core and from the working directory (the repository root, where it is not installed).
if (backend === 'mongo') await import('@permafrost/store-mongo');

/** The memory every pass queries: hashing embeddings, no model, no workers, guild-wide reads. */
function openMemory(store?: MemoryStore, url = location) {
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

type BenchMemory = ReturnType<typeof openMemory>;

/** A question as promptContext (the asker, the members it mentions). */
const askPromptContext = (memory: BenchMemory, q: Question) =>
  memory.promptContext({ guildId: GUILD, askerId: q.askerId, text: q.text, mentionedIds: [...q.mentioned] });

/** The same question as a recall over the asker, the mentioned members and the server. */
const askRecall = (memory: BenchMemory, q: Question) =>
  memory.recall({
    guildId: GUILD,
    text: q.text,
    subjectIds: [q.askerId, ...q.mentioned],
    includeServer: true,
  });

async function seed(): Promise<unknown> {
  const store = await openStore(backend, location);
  try {
    const size = Number(args.get('size'));
    return { ...(await seedGuild(store, size, members)), size };
  } finally {
    await store.close();
  }
}

/** promptContext and recall latency, interleaved per question, several repetitions. */
async function query(): Promise<unknown> {
  const n = Number(args.get('queries') ?? 300);
  const reps = Number(args.get('reps') ?? 3);
  const warmups = Number(args.get('warm') ?? 30);
  const profiledRequests = Number(args.get('profile') ?? 100);
  const rssStart = rssMiB();
  const memory = openMemory();
  const questions = makeQuestions(n + warmups, members);
  const warm = questions.slice(0, warmups);
  const timedQs = questions.slice(warmups);
  const pc = (q: Question) => askPromptContext(memory, q);
  // The same question asked in one channel: only facts learned there are visible (default policy).
  const pca = (q: Question) =>
    memory.promptContext({
      guildId: GUILD,
      askerId: q.askerId,
      text: q.text,
      mentionedIds: [...q.mentioned],
      audience: { channelId: SEED_CHANNELS[0], requesterId: q.askerId },
    });
  const rc = (q: Question) => askRecall(memory, q);
  let factsInBlocks = 0;
  const warningCounts = new Map<string, number>();
  for (const q of warm) {
    await pc(q);
    await pca(q);
    await rc(q);
  }
  const audienceAll: number[] = [];
  const audienceP95: number[] = [];
  const audienceP50: number[] = [];
  let factsInAudienceBlocks = 0;
  const pcAll: number[] = [];
  const rcAll: number[] = [];
  const pcP95: number[] = [];
  const rcP95: number[] = [];
  const pcP50: number[] = [];
  const rcP50: number[] = [];
  const rssSamples: number[] = [];
  let rssSplit: ReturnType<typeof rssBreakdownMiB> = null;
  for (let r = 0; r < reps; r++) {
    const a: number[] = [];
    const b: number[] = [];
    const c: number[] = [];
    for (const q of timedQs) {
      a.push(
        await timed(async () => {
          const ctx = await pc(q);
          factsInBlocks += ctx.facts.length;
          for (const w of ctx.warnings) warningCounts.set(w, (warningCounts.get(w) ?? 0) + 1);
        }),
      );
      b.push(await timed(() => rc(q)));
      c.push(
        await timed(async () => {
          factsInAudienceBlocks += (await pca(q)).facts.length;
        }),
      );
    }
    audienceAll.push(...c);
    audienceP95.push(summarize(c).p95);
    audienceP50.push(summarize(c).p50);
    rssSamples.push(rssMiB());
    rssSplit = rssBreakdownMiB();
    pcAll.push(...a);
    rcAll.push(...b);
    pcP95.push(summarize(a).p95);
    rcP95.push(summarize(b).p95);
    pcP50.push(summarize(a).p50);
    rcP50.push(summarize(b).p50);
  }
  // The serving process's peak, before the passes below open more stores (and, on Mongo, load
  // command monitoring): what a bot serving this guild holds.
  const servingPeakRss = peakRssMiB();
  await memory.close({ drain: false });
  // Where a promptContext's time goes: a separate pass through a store that times every call
  // (--profile=0 skips it), then, on Mongo, commands per operation (--commands=0 skips them).
  let storeProfile: { requests: number; meanPromptContextMs: number; calls: unknown[] } = {
    requests: 0,
    meanPromptContextMs: 0,
    calls: [],
  };
  if (profiledRequests > 0)
    storeProfile = await profilePass(warm, timedQs.slice(0, Math.min(profiledRequests, timedQs.length)));
  const commandQs = Number(args.get('commands') ?? 10);
  const commands =
    backend === 'mongo' && commandQs > 0
      ? // Loaded here: the Mongo driver and the proxy are not part of a SQLite process's memory.
        await (await import('./recall-round-trips.js')).mongoRoundTrips({
          location,
          questions: timedQs.slice(0, Math.min(commandQs, timedQs.length)),
          open: (store, url) => openMemory(store, url),
          ops: { promptContext: askPromptContext, recall: askRecall },
          oneWayMs: Number(args.get('distance-ms') ?? 50),
        })
      : null;
  const waveQs = Number(args.get('waves') ?? 10);
  const storeWaves =
    waveQs > 0 ? await wavesPass(warm, timedQs.slice(0, Math.min(waveQs, timedQs.length))) : null;
  return {
    commands,
    storeWaves,
    storeProfile,
    promptContext: {
      samples: pcAll,
      summary: summarize(pcAll),
      p50: median(pcP50),
      p95: median(pcP95),
      perRepP95: pcP95,
    },
    promptContextWithAudience: {
      samples: audienceAll,
      summary: summarize(audienceAll),
      p50: median(audienceP50),
      p95: median(audienceP95),
      perRepP95: audienceP95,
      meanFacts: factsInAudienceBlocks / (reps * timedQs.length),
    },
    recall: {
      samples: rcAll,
      summary: summarize(rcAll),
      p50: median(rcP50),
      p95: median(rcP95),
      perRepP95: rcP95,
    },
    meanFactsPerPromptContext: factsInBlocks / (reps * timedQs.length),
    warnings: Object.fromEntries(warningCounts),
    rssStartMiB: rssStart,
    rssAfterMiB: Math.max(...rssSamples),
    rssSplitMiB: rssSplit,
    peakRssMiB: servingPeakRss,
  };
}

/** context() in instant and normal modes, interleaved; every normal call triggers long-term (mention), cache misses. */
async function context(): Promise<unknown> {
  const n = Number(args.get('queries') ?? 300);
  const reps = Number(args.get('reps') ?? 3);
  const memory = openMemory();
  // A live channel: the hot tier holds its last messages.
  const rand = prng(5);
  const base = Date.now() - 3_600_000;
  const events: MessageEventInput[] = Array.from({ length: 200 }, (_, i) => {
    const m = members[i % members.length] as (typeof members)[number];
    return {
      messageId: String(1400000000000000000n + BigInt(i)),
      guildId: GUILD,
      channelId: CHANNEL,
      authorId: m.id,
      authorUsername: m.username,
      authorDisplayName: m.name,
      content: chatLine(rand, members[(i * 7) % members.length] as (typeof members)[number]),
      createdAt: new Date(base + i * 1000),
    };
  });
  for (const e of events) await memory.observe(e);
  const questions = makeQuestions(reps * n + 30, members, 9).map((q, i) => ({
    ...q,
    // unique text per call: every normal-mode call is a cache miss
    text: `${q.text} (${i})`,
    mentioned: q.mentioned.length > 0 ? q.mentioned : [members[i % members.length]?.id as string],
  }));
  const call = (q: (typeof questions)[number], mode: 'instant' | 'normal') =>
    memory.context({
      guildId: GUILD,
      channelId: CHANNEL,
      askerId: q.askerId,
      text: q.text,
      mode,
      mentionedIds: [...q.mentioned],
    });
  for (const q of questions.slice(0, 30)) {
    await call(q, 'instant');
    await call(q, 'normal');
  }
  const inst: number[] = [];
  const norm: number[] = [];
  const instP95: number[] = [];
  const normP95: number[] = [];
  let cached = 0;
  let longTermUsed = 0;
  for (let r = 0; r < reps; r++) {
    const a: number[] = [];
    const b: number[] = [];
    for (const q of questions.slice(30 + r * n, 30 + (r + 1) * n)) {
      a.push(await timed(() => call(q, 'instant')));
      b.push(
        await timed(async () => {
          const c = await call(q, 'normal');
          if (c.cached) cached++;
          if (c.longTerm) longTermUsed++;
        }),
      );
    }
    inst.push(...a);
    norm.push(...b);
    instP95.push(summarize(a).p95);
    normP95.push(summarize(b).p95);
  }
  await memory.close({ drain: false });
  return {
    instant: { samples: inst, summary: summarize(inst), p95: median(instP95), perRepP95: instP95 },
    normal: { samples: norm, summary: summarize(norm), p95: median(normP95), perRepP95: normP95 },
    normalCalls: norm.length,
    normalCached: cached,
    normalWithLongTerm: longTermUsed,
    peakRssMiB: peakRssMiB(),
  };
}

/** promptContext through a store that times every port call. */
async function profilePass(warm: readonly Question[], profQs: readonly Question[]) {
  const profiled = profileStore(await openStore(backend, location));
  const pm = openMemory(profiled.store);
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
async function wavesPass(warm: readonly Question[], qs: readonly Question[]) {
  const counter = new StoreWaves(await openStore(backend, location));
  const memory = openMemory(counter.store);
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

const modes: Record<string, () => Promise<unknown>> = { seed, query, context };
const run = mode ? modes[mode] : undefined;
if (!run) {
  process.stderr.write('usage: recall-worker.js seed|query|context --backend --location ...\n');
  process.exit(2);
}
replyAsJsonChild(run);

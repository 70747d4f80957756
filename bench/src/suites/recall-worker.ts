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
import { makeMembers, makeQuestions, type Question } from '../community.js';
import { replyAsJsonChild } from '../harness/child.js';
import { parseArgs, peakRssMiB, rssBreakdownMiB, rssMiB } from '../harness/env.js';
import { type Backend, GUILD, openStore, SEED_CHANNELS, seedGuild } from '../harness/seed.js';
import { median, timed } from '../harness/suite.js';
import { summarize } from '../stats.js';
import { contextPass } from './recall-worker-context.js';
import { askPromptContext, askRecall, openMemory, profilePass, wavesPass } from './recall-worker-memory.js';

const MEMBERS = 200;

const args = parseArgs(process.argv.slice(2));
const mode = args.get('_0');
const backend = (args.get('backend') ?? 'sqlite') as Backend;
const location = args.get('location') ?? '';
const members = makeMembers(MEMBERS);
// The Mongo store registers its URL scheme when imported. createMemory would otherwise look for it
// from core and from the working directory (the repository root, where it is not installed).
if (backend === 'mongo') await import('@permafrost/store-mongo');

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
  const memory = openMemory(backend, location);
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
    storeProfile = await profilePass(
      backend,
      location,
      warm,
      timedQs.slice(0, Math.min(profiledRequests, timedQs.length)),
    );
  const commandQs = Number(args.get('commands') ?? 10);
  const commands =
    backend === 'mongo' && commandQs > 0
      ? // Loaded here: the Mongo driver and the proxy are not part of a SQLite process's memory.
        await (await import('./recall-round-trips.js')).mongoRoundTrips({
          location,
          questions: timedQs.slice(0, Math.min(commandQs, timedQs.length)),
          open: (store, url) => openMemory(backend, url, store),
          ops: { promptContext: askPromptContext, recall: askRecall },
          mongodbPlanQuestions: Number(args.get('mongodb-plan') ?? 3),
        })
      : null;
  const waveQs = Number(args.get('waves') ?? 10);
  const storeWaves =
    waveQs > 0
      ? await wavesPass(backend, location, warm, timedQs.slice(0, Math.min(waveQs, timedQs.length)))
      : null;
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

/** context() in instant and normal modes, interleaved (recall-worker-context.ts). */
async function context(): Promise<unknown> {
  return contextPass({
    memory: openMemory(backend, location),
    members,
    queries: Number(args.get('queries') ?? 300),
    reps: Number(args.get('reps') ?? 3),
  });
}

const modes: Record<string, () => Promise<unknown>> = { seed, query, context };
const run = mode ? modes[mode] : undefined;
if (!run) {
  process.stderr.write('usage: recall-worker.js seed|query|context --backend --location ...\n');
  process.exit(2);
}
replyAsJsonChild(run);

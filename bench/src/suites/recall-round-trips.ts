/**
 * Mongo only, for the recall worker: commands and round trips (critical path) of promptContext and
 * recall, counted by the driver's command monitoring on a client of our own
 * (harness/command-monitor.ts), and measured at a distance through a latency proxy.
 */
import type { Memory, MemoryStore } from '@permafrost/core';
import { MongoClient } from 'mongodb';
import type { Question } from '../community.js';
import { type CommandCount, CommandMonitor } from '../harness/command-monitor.js';
import { startLatencyProxy } from '../harness/latency-proxy.js';
import { median, timed } from '../harness/suite.js';

type Op = (m: Memory, q: Question) => Promise<unknown>;

export interface RoundTripInput {
  readonly location: string;
  readonly questions: readonly Question[];
  /** The memory the worker measures, over a given store. */
  readonly open: (store: MemoryStore, url: string) => Memory;
  readonly ops: { readonly promptContext: Op; readonly recall: Op };
  /** One-way delay of the distance measurement (0 skips it). */
  readonly oneWayMs: number;
}

/** Commands and round trips per operation, plus the distance measurement when asked. */
export async function mongoRoundTrips(input: RoundTripInput): Promise<unknown> {
  const { location, questions, ops } = input;
  const askPromptContext = ops.promptContext;
  const askRecall = ops.recall;
  // A pool large enough for the widest wave of concurrent reads: a command waiting for a free
  // connection would start after others answered and count as a round trip it is not.
  const client = new MongoClient(location, {
    monitorCommands: true,
    serverSelectionTimeoutMS: 5_000,
    maxPoolSize: 256,
  });
  const monitor = new CommandMonitor(client);
  const { createMongoStore } = await import('@permafrost/store-mongo');
  const memory = input.open(createMongoStore({ client, url: location }), location);
  const pc: CommandCount[] = [];
  const rc: CommandCount[] = [];
  try {
    // Warm-up: the client opens the connections its concurrent reads need.
    for (const q of questions.slice(0, 2)) {
      await askPromptContext(memory, q);
      await askRecall(memory, q);
    }
    for (const q of questions) {
      pc.push((await monitor.measure(() => askPromptContext(memory, q))).count);
      rc.push((await monitor.measure(() => askRecall(memory, q))).count);
    }
  } finally {
    await memory.close({ drain: false });
    await client.close();
  }
  const stat = (xs: readonly CommandCount[]) => ({
    operations: xs.length,
    meanCommands: xs.reduce((n, c) => n + c.commands, 0) / Math.max(1, xs.length),
    maxCommands: Math.max(0, ...xs.map((c) => c.commands)),
    meanRoundTrips: xs.reduce((n, c) => n + c.roundTrips, 0) / Math.max(1, xs.length),
    maxRoundTrips: Math.max(0, ...xs.map((c) => c.roundTrips)),
  });
  const distance = input.oneWayMs > 0 ? await distanceRoundTrips(input, input.oneWayMs) : null;
  return { promptContext: stat(pc), recall: stat(rc), distance };
}

/**
 * Round trips as a client far from its server pays them, measured rather than inferred: each
 * question is asked through a direct client and through a loopback proxy that delays every
 * packet by `oneWayMs` each way (harness/latency-proxy.ts), one after the other; the extra time
 * divided by the round-trip time is the operation's critical path in round trips (concurrent
 * commands overlap, as they do over a real network). Server time varies between the two asks, so
 * per-question values are noisy; the median is the figure.
 */
async function distanceRoundTrips(input: RoundTripInput, oneWayMs: number): Promise<unknown> {
  const { location, questions } = input;
  const proxy = await startLatencyProxy(location, oneWayMs);
  const { createMongoStore } = await import('@permafrost/store-mongo');
  const open = (url: string) => {
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 5_000 });
    return { memory: input.open(createMongoStore({ client, url }), url), client };
  };
  const near = open(location);
  const far = open(proxy.url);
  const ops: Record<'promptContext' | 'recall', Op> = input.ops;
  const perOp: Record<keyof typeof ops, number[]> = { promptContext: [], recall: [] };
  try {
    // Warm-up: both clients open the connections their concurrent reads need.
    for (const q of questions.slice(0, 2))
      for (const op of Object.values(ops)) {
        await op(near.memory, q);
        await op(far.memory, q);
      }
    for (const q of questions)
      for (const [name, op] of Object.entries(ops) as [keyof typeof ops, Op][]) {
        const direct = await timed(() => op(near.memory, q));
        const distant = await timed(() => op(far.memory, q));
        perOp[name].push((distant - direct) / (2 * oneWayMs));
      }
  } finally {
    await near.memory.close({ drain: false });
    await far.memory.close({ drain: false });
    await near.client.close();
    await far.client.close();
    await proxy.close();
  }
  const stat = (xs: readonly number[]) => ({
    operations: xs.length,
    medianRoundTrips: Math.round(median(xs) * 10) / 10,
    meanRoundTrips: Math.round((xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)) * 10) / 10,
  });
  return { oneWayMs, promptContext: stat(perOp.promptContext), recall: stat(perOp.recall) };
}

/**
 * Mongo only, for the recall worker: commands (driver command monitoring) and round trips (the
 * clock proxy of harness/round-trip-clock.ts) of promptContext and recall, on a client of our own.
 * Counted twice when the server is FerretDB: with the query plan the store picks there (point
 * reads, one equality query per alternative) and with the MongoDB plan (one `$in` / `$or` query
 * per read), which is what the same store sends to MongoDB or Atlas. A plan decides the commands,
 * not the server, so the second count is MongoDB's; FerretDB answers it slowly (it scans for
 * `$in`), hence fewer questions.
 */
import type { Memory, MemoryStore } from '@permafrost/core';
import type { QueryPlan } from '@permafrost/store-mongo';
import { MongoClient } from 'mongodb';
import type { Question } from '../community.js';
import {
  type CommandCount,
  CommandMonitor,
  commandStats,
  countOperation,
} from '../harness/command-monitor.js';
import { startRoundTripClock } from '../harness/round-trip-clock.js';

type Op = (m: Memory, q: Question) => Promise<unknown>;

export interface RoundTripInput {
  readonly location: string;
  readonly questions: readonly Question[];
  /** Questions counted with the MongoDB plan on FerretDB (0 skips that pass). */
  readonly mongodbPlanQuestions: number;
  /** The memory the worker measures, over a given store. */
  readonly open: (store: MemoryStore, url: string) => Memory;
  readonly ops: { readonly promptContext: Op; readonly recall: Op };
}

export interface PlanCounts {
  readonly queryPlan: QueryPlan;
  readonly promptContext: ReturnType<typeof commandStats>;
  readonly recall: ReturnType<typeof commandStats>;
}

/** Commands and round trips per operation with the store's own plan, then the MongoDB plan on FerretDB. */
export async function mongoRoundTrips(
  input: RoundTripInput,
): Promise<PlanCounts & { mongodbPlan: PlanCounts | null }> {
  const own = await countPlan(input, 'auto', input.questions);
  const mongodbPlan =
    own.queryPlan === 'ferretdb' && input.mongodbPlanQuestions > 0
      ? await countPlan(input, 'mongodb', input.questions.slice(0, input.mongodbPlanQuestions))
      : null;
  return { ...own, mongodbPlan };
}

async function countPlan(
  input: RoundTripInput,
  queryPlan: 'auto' | QueryPlan,
  questions: readonly Question[],
): Promise<PlanCounts> {
  const { ops } = input;
  const clock = await startRoundTripClock(input.location);
  // A pool large enough for the widest wave of concurrent reads: a command waiting for a free
  // connection is sent after others answered, a round trip it would not need with more connections.
  const client = new MongoClient(clock.url, {
    monitorCommands: true,
    serverSelectionTimeoutMS: 5_000,
    maxPoolSize: 256,
  });
  const monitor = new CommandMonitor(client);
  const { createMongoStore } = await import('@permafrost/store-mongo');
  const store = createMongoStore({ client, url: clock.url, queryPlan });
  const memory = input.open(store, clock.url);
  const pc: CommandCount[] = [];
  const rc: CommandCount[] = [];
  try {
    // Warm-up: the client opens the connections its concurrent reads need.
    for (const q of questions.slice(0, 1)) {
      await ops.promptContext(memory, q);
      await ops.recall(memory, q);
    }
    for (const q of questions) {
      pc.push((await countOperation(clock, monitor, () => ops.promptContext(memory, q))).count);
      rc.push((await countOperation(clock, monitor, () => ops.recall(memory, q))).count);
    }
    return { queryPlan: store.profile.queryPlan, promptContext: commandStats(pc), recall: commandStats(rc) };
  } finally {
    await memory.close({ drain: false });
    await client.close();
    await clock.close();
  }
}

/**
 * Suite — flood: one member sends 50,000 messages (quick: 10,000) as fast as `observe` takes them,
 * while 20 other members keep chatting (one message after every 100 of the flood), into a SQLite
 * file with workers on and a 100 ms model behind the ChatLLM port. Reports whether any other
 * member's message was rejected (target: none), how long the slowest of their observe calls took
 * during the flood, and the extraction calls spent on the flooder's batches in the measuring
 * window against that member's share (`budgets.memberBatchesPerHour`, derived by default).
 */
import { join } from 'node:path';
import { type ChatLLM, createMemory, type MessageEventInput } from '@permafrost/core';
import { memberSharesOf } from '@permafrost/core/internal';
import { createSqliteStore } from '@permafrost/store-sqlite';
import { type Member, makeMembers } from '../community.js';
import { round, type Suite, target } from '../harness/suite.js';
import { summarize } from '../stats.js';

const GUILD = '1098765432109876543';
const CHANNEL = '1200000000000000001';
const MODEL_MS = 100;

/** The 100 ms model: answers every extraction with no operations (the flood is noise). */
function slowModel(): ChatLLM & { calls: number } {
  const model = {
    model: 'bench-100ms',
    calls: 0,
    async complete() {
      model.calls++;
      await new Promise((r) => setTimeout(r, MODEL_MS));
      return {
        text: '{"operations":[]}',
        model: 'bench-100ms',
        promptTokens: 500,
        completionTokens: 5,
        costUsd: null,
      };
    },
  };
  return model;
}

const event = (id: number, m: Member, content: string, at: Date): MessageEventInput => ({
  messageId: String(1_300_000_000_000_000_000n + BigInt(id)),
  guildId: GUILD,
  channelId: CHANNEL,
  authorId: m.id,
  authorUsername: m.username,
  authorDisplayName: m.name,
  content,
  createdAt: at,
});

export const floodSuite: Suite = async (ctx) => {
  const floodSize = ctx.quick ? 10_000 : 50_000;
  const settleMs = ctx.quick ? 5_000 : 20_000;
  const [flooder, ...others] = makeMembers(21) as [Member, ...Member[]];
  const model = slowModel();
  const path = join(ctx.workDir, 'flood.db');
  const memory = createMemory(
    {
      storage: `sqlite://${path}`,
      access: { requireAudience: false },
      llm: 'heuristic',
      workers: { enabled: true, pollIntervalMs: 50 },
      extraction: { noiseGate: false },
    },
    { store: createSqliteStore({ path }), llm: model, smallLlm: null },
  );
  const floodCalls = { n: 0 };
  memory.events.on('BatchCompleted', (e) => {
    if (e.subjectKeys.includes(flooder.id)) floodCalls.n += e.llmCalls;
  });
  const otherLatency: number[] = [];
  const statuses: Record<string, number> = {};
  let othersRejected = 0;
  let id = 0;
  const t0 = performance.now();
  try {
    for (let i = 0; i < floodSize; i++) {
      const r = await memory.observe(
        event(++id, flooder, `buy my coin now number ${i} to the moon`, new Date()),
      );
      const k = r.reason ? `${r.status}:${r.reason}` : r.status;
      statuses[k] = (statuses[k] ?? 0) + 1;
      if (i % 100 === 99) {
        const m = others[((i / 100) % others.length) | 0] as Member;
        const t = performance.now();
        const o = await memory.observe(event(++id, m, `I live in Lisbon and I keep ${i} bees`, new Date()));
        otherLatency.push(performance.now() - t);
        if (o.status !== 'accepted') othersRejected++;
      }
    }
    const floodSeconds = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, settleMs));
    const callsOnFlood = floodCalls.n;
    const share = memberSharesOf(memory.config).batchesPerHour;
    const lat = summarize(otherLatency);
    return {
      title: `Flood: one member sends ${floodSize.toLocaleString('en-US')} messages`,
      parameters: { floodSize, otherMembers: others.length, modelMs: MODEL_MS, settleMs, share },
      samples: { otherObserveMs: { unit: 'ms', values: otherLatency } },
      results: {
        floodSeconds: round(floodSeconds),
        floodReceipts: statuses,
        othersObserved: otherLatency.length,
        othersRejected,
        otherObserveMaxMs: round(lat.max),
        otherObserveP99Ms: round(lat.p99),
        modelCalls: model.calls,
        callsOnFlood,
      },
      targets: [
        target(
          'flood-others-rejected',
          "other members' messages rejected during the flood",
          '<=',
          0,
          '',
          othersRejected,
        ),
        target(
          'flood-others-accept-ms',
          "slowest observe of another member's message during the flood (time to be accepted)",
          '<',
          100,
          'ms',
          lat.max,
        ),
        target(
          'flood-calls',
          "extraction calls spent on the flooder's batches (its hourly share)",
          '<=',
          share,
          '',
          callsOnFlood,
        ),
      ],
      notes: [
        `Receipts of the flood: ${Object.entries(statuses)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}.`,
        `Calls counted over the flood plus ${settleMs / 1000} s of workers; the share is per hour.`,
      ],
    };
  } finally {
    await memory.close({ drain: false });
  }
};

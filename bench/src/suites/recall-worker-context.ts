/**
 * The recall worker's `context` mode: context() latency in instant and normal modes over a live
 * channel, for the context suite.
 */
import type { MessageEventInput } from '@permafrost/core';
import { chatLine, type Member, makeQuestions } from '../community.js';
import { peakRssMiB } from '../harness/env.js';
import { GUILD } from '../harness/seed.js';
import { median, timed } from '../harness/suite.js';
import { prng, summarize } from '../stats.js';
import type { BenchMemory } from './recall-worker-memory.js';

const CHANNEL = '1200000000000000001';

export interface ContextPassInput {
  /** The memory to query; closed when the pass ends. */
  readonly memory: BenchMemory;
  readonly members: readonly Member[];
  /** Questions per repetition. */
  readonly queries: number;
  readonly reps: number;
}

/** context() in instant and normal modes, interleaved; every normal call triggers long-term (mention), cache misses. */
export async function contextPass(input: ContextPassInput): Promise<unknown> {
  const { memory, members, queries: n, reps } = input;
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

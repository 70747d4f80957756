/**
 * conversation.search latency in one big guild: the user turns of many LongMemEval haystacks
 * observed into one guild of a SQLite file (one channel per session), flushed (hashing vectors),
 * then every question searched once after a warm-up (`warmupTexts`, then the first ten questions),
 * whose first search and the rest are reported apart.
 */
import '@permafrost/store-sqlite';
import { join } from 'node:path';
import { createMemory } from '../locomo/core.js';
import { type LatencySummary, summarize } from '../stats.js';
import type { LmeQuestion } from './dataset.js';

const BATCH = 500;

export async function searchLatency(
  questions: readonly LmeQuestion[],
  messages: number,
  workDir: string,
  warmupTexts: readonly string[] = [],
): Promise<{
  messages: number;
  seedSeconds: number;
  search: LatencySummary;
  firstSearchMs: number;
  warmup: LatencySummary;
}> {
  const now = new Date(Math.max(...questions.map((q) => q.questionDate.getTime())) + 60_000);
  const memory = createMemory(
    {
      storage: `sqlite://${join(workDir, `search-${messages}.db`)}`,
      access: { requireAudience: false },
      llm: null,
      embeddings: 'hashing',
      workers: { enabled: false },
      observe: { maxQueueDepthPerGuild: 10_000_000 },
    },
    { clock: { now: () => now } },
  );
  try {
    const t0 = performance.now();
    const events = [];
    // The haystacks are replayed (as other members' conversations) until the guild holds `messages`.
    outer: for (let pass = 0; pass < 100; pass++)
      for (const [qi, q] of questions.entries())
        for (const [si, s] of q.sessions.entries())
          for (const [ti, t] of s.turns.entries()) {
            events.push({
              messageId: `p${pass}q${qi}s${si}t${ti}`,
              guildId: 'big',
              channelId: `p${pass}q${qi}s${si}`,
              authorId: `user${pass}-${qi}`,
              content: t.content,
              createdAt: t.at,
            });
            if (events.length >= messages) break outer;
          }
    for (let i = 0; i < events.length; i += BATCH) {
      await memory.observeMany(events.slice(i, i + BATCH));
      if ((i / BATCH) % 10 === 9) await memory.flush();
    }
    await memory.flush();
    const seedSeconds = (performance.now() - t0) / 1000;
    const texts = questions.map((q) => q.question);
    const timed = async (text: string) => {
      const t = performance.now();
      await memory.conversation.search({ guildId: 'big', text, limit: 10 });
      return performance.now() - t;
    };
    // Warm-up: the store's start (the guild's vectors read, the keyword index copied, the hot
    // loops compiled) is reported apart; the searches after it are the measured ones.
    const warm: number[] = [];
    for (const text of [...warmupTexts, ...texts.slice(0, 10)]) warm.push(await timed(text));
    const samples: number[] = [];
    for (const text of texts) samples.push(await timed(text));
    return {
      messages: events.length,
      seedSeconds,
      search: summarize(samples),
      firstSearchMs: warm[0] ?? 0,
      warmup: summarize(warm.slice(1)),
    };
  } finally {
    await memory.close({ drain: false });
  }
}

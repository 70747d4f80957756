/**
 * The library as a bot author drives it: every user turn of a question's haystack is observed
 * (one guild per question, one channel per session, the member "user"), `flush` runs the workers
 * (no LLM: they only embed the messages), and the question goes through `conversation.search` at
 * the question's date.
 */
import { createMemory, type Embedder, type MemoryConfigInput } from '../locomo/core.js';
import type { LmeQuestion } from './dataset.js';

const GUILD = 'lme';
const USER = 'user';
const OBSERVE_BATCH = 200;

export interface MemoryRetrieverOptions {
  readonly config?: MemoryConfigInput;
  /** Another embedder (e.g. the local model); default: the configuration's hashing embedder. */
  readonly makeEmbedder?: () => Embedder | Promise<Embedder>;
}

/** The ranked protocol document ids for one question (best first), and the search time. */
export async function rankWithMemory(
  q: LmeQuestion,
  limit: number,
  options: MemoryRetrieverOptions = {},
): Promise<{ ranked: string[]; searchMs: number }> {
  const now = new Date(q.questionDate.getTime() + 60_000);
  const embedder = options.makeEmbedder ? await options.makeEmbedder() : undefined;
  const memory = createMemory(
    {
      storage: 'memory',
      access: { requireAudience: false },
      llm: null,
      embeddings: 'hashing',
      ...options.config,
      workers: { enabled: false },
      observe: { maxQueueDepthPerGuild: 100_000 },
    },
    { clock: { now: () => now }, ...(embedder ? { embedder } : {}) },
  );
  try {
    // Opaque message ids: the protocol ids name the evidence sessions, so they stay out of the store.
    const docOf = new Map<string, string>();
    const events = q.sessions.flatMap((s, si) =>
      s.turns.map((t, ti) => {
        const messageId = `m${String(si).padStart(3, '0')}${String(ti).padStart(4, '0')}`;
        docOf.set(messageId, t.docId);
        return {
          messageId,
          guildId: GUILD,
          channelId: `c${si}`,
          authorId: USER,
          authorUsername: USER,
          authorDisplayName: 'User',
          content: t.content,
          createdAt: t.at,
        };
      }),
    );
    for (let i = 0; i < events.length; i += OBSERVE_BATCH) {
      const receipts = await memory.observeMany(events.slice(i, i + OBSERVE_BATCH));
      const bad = receipts.find((r) => r.status === 'rejected');
      if (bad) throw new Error(`observe rejected a turn: ${bad.reason}`);
    }
    await memory.flush();
    const t0 = performance.now();
    const result = await memory.conversation.search({ guildId: GUILD, text: q.question, limit });
    const searchMs = performance.now() - t0;
    if (result.warnings.length > 0) throw new Error(`search warned: ${result.warnings.join(',')}`);
    return { ranked: result.messages.map((m) => docOf.get(m.message.messageId) as string), searchMs };
  } finally {
    await memory.close({ drain: false });
  }
}

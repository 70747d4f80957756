import { createMemory, type Embedder, type MemoryConfigInput, type MemoryStore } from './core.js';
import { type Conversation, turnDocument } from './dataset.js';
import { RecallTally } from './scoring.js';

export interface LevelOptions {
  readonly ks: readonly number[];
  /** Configuration overrides (retrieval, lifecycle); storage, llm and workers are the harness's. */
  readonly config: MemoryConfigInput;
  readonly makeEmbedder: () => Embedder | Promise<Embedder>;
  readonly makeStore?: () => MemoryStore | Promise<MemoryStore>;
}

/** The one channel a LoCoMo conversation is observed into (its facts are learned there too). */
export const CHANNEL = 'locomo-dialogue';
const OBSERVE_BATCH = 200;
const DAY_MS = 86_400_000;

/** A fresh Memory for one conversation, as a bot author builds it (no LLM, workers run by flush). */
export async function conversationMemory(conv: Conversation, opts: LevelOptions) {
  const last = Math.max(...conv.turns.map((t) => t.at.getTime()));
  const now = new Date(last + DAY_MS);
  const embedder = await opts.makeEmbedder();
  const store = opts.makeStore ? await opts.makeStore() : undefined;
  return createMemory(
    {
      storage: 'memory',
      access: { requireAudience: false },
      llm: null,
      ...opts.config,
      workers: { enabled: false },
      observe: { maxQueueDepthPerGuild: 100_000 },
    },
    { clock: { now: () => now }, embedder, ...(store ? { store } : {}) },
  );
}

/**
 * Turn level: every turn is observed as a message of its speaker (id = dia_id, content as the
 * official RAG code embeds it), `flush` embeds them, and each question goes through
 * `conversation.search`; a retrieved message is its dia_id.
 */
export async function runTurnLevel(conversations: readonly Conversation[], opts: LevelOptions) {
  const tally = new RecallTally(opts.ks);
  const maxK = Math.max(...opts.ks);
  let questions = 0;
  let searchMs = 0;
  for (const conv of conversations) {
    const memory = await conversationMemory(conv, opts);
    try {
      const events = conv.turns.map((t) => ({
        messageId: t.diaId,
        guildId: conv.sampleId,
        channelId: CHANNEL,
        authorId: t.speaker.toLowerCase(),
        authorUsername: t.speaker.toLowerCase(),
        authorDisplayName: t.speaker,
        content: turnDocument(t),
        createdAt: t.at,
      }));
      for (let i = 0; i < events.length; i += OBSERVE_BATCH) {
        const receipts = await memory.observeMany(events.slice(i, i + OBSERVE_BATCH));
        const bad = receipts.find((r) => r.status !== 'accepted');
        if (bad) throw new Error(`observe did not accept turn ${bad.messageId}: ${bad.reason}`);
      }
      await memory.flush();
      for (const q of conv.questions) {
        if (q.evidence.length === 0) continue;
        const t0 = performance.now();
        const result = await memory.conversation.search({
          guildId: conv.sampleId,
          text: q.question,
          limit: maxK,
        });
        searchMs += performance.now() - t0;
        if (result.warnings.length > 0) throw new Error(`search warned: ${result.warnings.join(',')}`);
        tally.add(
          q.category,
          result.messages.map((m) => [m.message.messageId]),
          q.evidence,
        );
        questions++;
      }
    } finally {
      await memory.close({ drain: false });
    }
  }
  return { summary: tally.summary(), questions, meanSearchMs: searchMs / Math.max(1, questions) };
}

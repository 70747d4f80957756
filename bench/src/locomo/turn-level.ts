import {
  createInMemoryStore,
  createMessageSearch,
  type Embedder,
  type MemoryConfig,
  type MemoryStore,
  type StoredMessage,
} from './core.js';
import { type Conversation, turnDocument } from './dataset.js';
import { RecallTally } from './scoring.js';

export interface LevelOptions {
  readonly ks: readonly number[];
  readonly retrieval: MemoryConfig['retrieval'];
  readonly makeEmbedder: () => Embedder | Promise<Embedder>;
  readonly makeStore?: () => MemoryStore | Promise<MemoryStore>;
}

const CHANNEL = 'locomo-dialogue';
const EMBED_BATCH = 64;

function storedMessage(conv: Conversation, t: Conversation['turns'][number]): StoredMessage {
  return {
    messageId: t.diaId,
    guildId: conv.sampleId,
    channelId: CHANNEL,
    authorId: t.speaker.toLowerCase(),
    authorUsername: t.speaker.toLowerCase(),
    authorDisplayName: t.speaker,
    authorIsBot: false,
    content: turnDocument(t),
    contentTruncated: false,
    rawStored: true,
    createdAt: t.at,
    mentionIds: [],
    replyToMessageId: null,
    threadParentId: null,
    edited: false,
    metadata: null,
    kind: 'chat',
    subjectKey: t.speaker.toLowerCase(),
    status: 'processed',
    attempts: 0,
    nextAttemptAt: null,
    leaseOwner: null,
    leaseUntil: null,
    processedAt: t.at,
  };
}

/** Writes the turns as processed messages plus their `message` vectors, as the ingest workers would. */
export async function loadTurns(store: MemoryStore, embedder: Embedder, conv: Conversation): Promise<void> {
  const messages = conv.turns.map((t) => storedMessage(conv, t));
  await store.queue.enqueueMany(messages, Number.MAX_SAFE_INTEGER);
  for (let i = 0; i < messages.length; i += EMBED_BATCH) {
    const batch = messages.slice(i, i + EMBED_BATCH);
    const vectors = await embedder.embed(batch.map((m) => m.content));
    await store.vectors.upsert(
      batch.map((m, j) => ({
        kind: 'message' as const,
        id: m.messageId,
        guildId: m.guildId,
        subjectId: m.authorId,
        active: true,
        vector: vectors[j] as Float32Array,
      })),
    );
  }
}

/** Turn level: each question → conversation.search; a retrieved message is its dia_id. */
export async function runTurnLevel(conversations: readonly Conversation[], opts: LevelOptions) {
  const tally = new RecallTally(opts.ks);
  const maxK = Math.max(...opts.ks);
  let questions = 0;
  let searchMs = 0;
  for (const conv of conversations) {
    const store = opts.makeStore ? await opts.makeStore() : createInMemoryStore();
    const embedder = await opts.makeEmbedder();
    await loadTurns(store, embedder, conv);
    const search = createMessageSearch({
      store,
      embedder,
      clock: { now: () => new Date() },
      retrieval: opts.retrieval,
      isBot: () => false,
    });
    for (const q of conv.questions) {
      if (q.evidence.length === 0) continue;
      const t0 = performance.now();
      const result = await search.search({ guildId: conv.sampleId, text: q.question, limit: maxK });
      searchMs += performance.now() - t0;
      if (result.warnings.length > 0) throw new Error(`search warned: ${result.warnings.join(',')}`);
      tally.add(
        q.category,
        result.messages.map((m) => [m.message.messageId]),
        q.evidence,
      );
      questions++;
    }
    await store.close();
    await embedder.close();
  }
  return { summary: tally.summary(), questions, meanSearchMs: searchMs / Math.max(1, questions) };
}

import {
  type Alias,
  createInMemoryStore,
  createRecallService,
  type Embedder,
  type Fact,
  type Link,
  type MemoryStore,
  normalizeAlias,
  normalizeText,
} from './core.js';
import type { Conversation } from './dataset.js';
import { RecallTally } from './scoring.js';
import type { LevelOptions } from './turn-level.js';

const EMBED_BATCH = 64;
const DAY_MS = 86_400_000;

export interface ObservationLevelOptions extends LevelOptions {
  readonly lifecycle: Parameters<typeof createRecallService>[0]['lifecycle'];
}

function observationFact(conv: Conversation, i: number): Fact {
  const o = conv.observations[i] as Conversation['observations'][number];
  const speakerId = o.speaker.toLowerCase();
  return {
    id: `fct_${conv.sampleId}_${String(i).padStart(6, '0')}`,
    guildId: conv.sampleId,
    subjectId: speakerId,
    text: o.text,
    normalizedText: normalizeText(o.text),
    category: 'general',
    confidence: 0.9,
    tier: 'long',
    scope: 'user',
    attribution: { type: 'self', speakerId, speakerName: o.speaker, actorId: null },
    occurrences: 1,
    strength: 1,
    lastReinforcedAt: o.at,
    createdAt: o.at,
    updatedAt: o.at,
    observedAt: o.at,
    validFrom: o.at,
    validUntil: null,
    supersedesId: null,
    supersededById: null,
    sources: o.diaIds.map((id, j) => ({
      messageId: id,
      channelId: 'locomo-dialogue',
      authorId: speakerId,
      authorName: o.speaker,
      snippet: '',
      url: '',
      role: j === 0 ? 'primary' : 'supporting',
      createdAt: o.at,
    })),
    relatedUserIds: [],
    entitySlugs: [],
    expiresAt: null,
    version: 1,
  };
}

/**
 * Commits each observation as a fact about its speaker (fact + vector + subject link), and the
 * speakers' display names as aliases (what observe registers for every author).
 */
export async function loadObservations(
  store: MemoryStore,
  embedder: Embedder,
  conv: Conversation,
): Promise<Fact[]> {
  const facts = conv.observations.map((_, i) => observationFact(conv, i));
  await store.facts.insert(facts);
  const links: Link[] = facts.map((f) => ({
    guildId: f.guildId,
    factId: f.id,
    nodeType: 'user',
    nodeId: f.subjectId as string,
    kind: 'subject_of',
    createdAt: f.createdAt,
  }));
  await store.graph.addLinks(links);
  for (const speaker of conv.speakers) {
    const alias: Alias = {
      guildId: conv.sampleId,
      alias: normalizeAlias(speaker),
      userId: speaker.toLowerCase(),
      source: 'display_name',
      weight: 0.7,
      updatedAt: new Date(0),
    };
    await store.aliases.upsert(alias);
  }
  for (let i = 0; i < facts.length; i += EMBED_BATCH) {
    const batch = facts.slice(i, i + EMBED_BATCH);
    const vectors = await embedder.embed(batch.map((f) => f.text));
    await store.vectors.upsert(
      batch.map((f, j) => ({
        kind: 'fact' as const,
        id: f.id,
        guildId: f.guildId,
        subjectId: f.subjectId,
        active: true,
        vector: vectors[j] as Float32Array,
      })),
    );
  }
  return facts;
}

/** Observation level: each question → recall (guild scope); a fact hits evidence via its dia_ids. */
export async function runObservationLevel(
  conversations: readonly Conversation[],
  opts: ObservationLevelOptions,
) {
  const tally = new RecallTally(opts.ks);
  const maxK = Math.max(...opts.ks);
  let questions = 0;
  let recallMs = 0;
  for (const conv of conversations) {
    const store = opts.makeStore ? await opts.makeStore() : createInMemoryStore();
    const embedder = await opts.makeEmbedder();
    const facts = await loadObservations(store, embedder, conv);
    const last = Math.max(...facts.map((f) => f.createdAt.getTime()));
    const sources = new Map(facts.map((f) => [f.id, f.sources.map((s) => s.messageId)]));
    const recall = createRecallService({
      store,
      embedder,
      clock: { now: () => new Date(last + DAY_MS) },
      retrieval: opts.retrieval,
      lifecycle: opts.lifecycle,
      reranker: null,
      isBot: () => false,
    });
    for (const q of conv.questions) {
      if (q.evidence.length === 0) continue;
      const t0 = performance.now();
      const result = await recall.recall({
        guildId: conv.sampleId,
        text: q.question,
        scope: 'guild',
        topK: maxK,
        maxPerSubject: maxK,
      });
      recallMs += performance.now() - t0;
      if (result.degradedChannels.length > 0) throw new Error('a recall channel degraded');
      tally.add(
        q.category,
        result.facts.map((f) => sources.get(f.fact.id) ?? []),
        q.evidence,
      );
      questions++;
    }
    await store.close();
    await embedder.close();
  }
  return { summary: tally.summary(), questions, meanRecallMs: recallMs / Math.max(1, questions) };
}

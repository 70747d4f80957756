import type { Fact, RelationEdge, ScoredFact, ScoredMessage } from '@permafrost/core';
import { z } from 'zod';

/** JSON shapes the tools return (structured content), and the mapping from core's objects. */

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export const factOut = z.object({
  id: z.string(),
  subjectId: z.string().nullable().describe('The member the fact is about; null for a server fact.'),
  text: z.string(),
  category: z.string(),
  tier: z.string(),
  strength: z.number(),
  confidence: z.number(),
  occurrences: z.number(),
  active: z.boolean(),
  attribution: z.object({
    type: z.string(),
    speakerId: z.string().nullable().describe('Who said it, when it is a claim of someone else.'),
  }),
  validFrom: z.string(),
  validUntil: z.string().nullable(),
  supersedesId: z.string().nullable(),
  supersededById: z.string().nullable(),
  sources: z.array(
    z.object({
      messageId: z.string(),
      channelId: z.string(),
      authorId: z.string(),
      url: z.string(),
      createdAt: z.string().nullable(),
    }),
  ),
});
export type FactOut = z.output<typeof factOut>;

export function factDto(f: Fact): FactOut {
  return {
    id: f.id,
    subjectId: f.subjectId,
    text: f.text,
    category: f.category,
    tier: f.tier,
    strength: f.strength,
    confidence: f.confidence,
    occurrences: f.occurrences,
    active: f.validUntil === null && f.supersededById === null,
    attribution: { type: f.attribution.type, speakerId: f.attribution.speakerId },
    validFrom: f.validFrom.toISOString(),
    validUntil: iso(f.validUntil),
    supersedesId: f.supersedesId,
    supersededById: f.supersededById,
    sources: f.sources.map((s) => ({
      messageId: s.messageId,
      channelId: s.channelId,
      authorId: s.authorId,
      url: s.url,
      createdAt: iso(s.createdAt),
    })),
  };
}

const components = z.object({
  semantic: z.number(),
  lexical: z.number(),
  entity: z.number(),
  strength: z.number(),
  rrf: z.number(),
  temporal: z.number(),
  context: z.number(),
});

export const scoredFactOut = z.object({
  fact: factOut,
  score: z.number(),
  components,
  matchedChannels: z.array(z.string()),
});

export function scoredFactDto(s: ScoredFact): z.output<typeof scoredFactOut> {
  return {
    fact: factDto(s.fact),
    score: s.score,
    components: {
      semantic: s.components.semantic,
      lexical: s.components.lexical,
      entity: s.components.entity,
      strength: s.components.strength,
      rrf: s.components.rrf,
      temporal: s.components.temporal,
      context: s.components.context,
    },
    matchedChannels: [...s.matchedChannels],
  };
}

export const scoredMessageOut = z.object({
  messageId: z.string(),
  channelId: z.string(),
  authorId: z.string(),
  authorName: z.string(),
  content: z.string(),
  createdAt: z.string(),
  url: z.string(),
  score: z.number(),
  components: z.object({
    semantic: z.number(),
    lexical: z.number(),
    rrf: z.number(),
    temporal: z.number(),
    context: z.number(),
  }),
});

export function scoredMessageDto(m: ScoredMessage): z.output<typeof scoredMessageOut> {
  return {
    messageId: m.message.messageId,
    channelId: m.message.channelId,
    authorId: m.message.authorId,
    authorName: m.message.authorDisplayName || m.message.authorUsername || m.message.authorId,
    content: m.message.content,
    createdAt: m.message.createdAt.toISOString(),
    url: m.url,
    score: m.score,
    components: {
      semantic: m.components.semantic,
      lexical: m.components.lexical,
      rrf: m.components.rrf,
      temporal: m.components.temporal,
      context: m.components.context,
    },
  };
}

const nodeOut = z.object({ type: z.string(), id: z.string() });

export const edgeOut = z.object({
  src: nodeOut,
  dst: nodeOut,
  verb: z.string(),
  polarity: z.string(),
  weight: z.number(),
  occurrences: z.number(),
  evidenceFactIds: z.array(z.string()),
  validFrom: z.string(),
  updatedAt: z.string(),
});

export function edgeDto(e: RelationEdge): z.output<typeof edgeOut> {
  return {
    src: { type: e.src.type, id: e.src.id },
    dst: { type: e.dst.type, id: e.dst.id },
    verb: e.verb,
    polarity: e.polarity,
    weight: e.weight,
    occurrences: e.occurrences,
    evidenceFactIds: [...e.evidenceFactIds],
    validFrom: e.validFrom.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

export const warningsOut = z.array(z.string()).describe('Recall warnings (degraded channels, …).');

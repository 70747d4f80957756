import type { Conversation } from './dataset.js';
import { RecallTally } from './scoring.js';
import { CHANNEL, conversationMemory, type LevelOptions } from './turn-level.js';

/**
 * Observation level, as a bot author would import them: each observation becomes a manual fact
 * about its speaker through `facts.remember({ subjectId, text, subjectUsername, observedAt, channel })`
 * (observedAt = its session's date, channel = the conversation's, as the turn level observes it), and each question goes through
 * `recall({ scope: 'guild', topK: k, maxPerSubject: k })`; a recalled fact hits evidence through
 * the dia_ids of the observation it was made from. Observations the quality gate refuses are
 * counted, not stored.
 */
export async function runObservationLevel(conversations: readonly Conversation[], opts: LevelOptions) {
  const tally = new RecallTally(opts.ks);
  const maxK = Math.max(...opts.ks);
  let questions = 0;
  let recallMs = 0;
  let refused = 0;
  for (const conv of conversations) {
    const memory = await conversationMemory(conv, opts);
    try {
      const sources = new Map<string, string[]>();
      for (const o of conv.observations) {
        try {
          const fact = await memory.facts.remember({
            guildId: conv.sampleId,
            subjectId: o.speaker.toLowerCase(),
            subjectUsername: o.speaker,
            text: o.text,
            observedAt: o.at,
            // Learned in the conversation's channel (the one the turn level observes into).
            channel: { channelId: CHANNEL, parentId: null },
          });
          // Identical observations become one reinforced fact: it stands for all of their dia_ids.
          sources.set(fact.id, [...new Set([...(sources.get(fact.id) ?? []), ...o.diaIds])]);
        } catch (error) {
          if ((error as { code?: string }).code !== 'SCHEMA_INVALID') throw error;
          refused++;
        }
      }
      for (const q of conv.questions) {
        if (q.evidence.length === 0) continue;
        const t0 = performance.now();
        const result = await memory.recall({
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
    } finally {
      await memory.close({ drain: false });
    }
  }
  return {
    summary: tally.summary(),
    questions,
    refused,
    meanRecallMs: recallMs / Math.max(1, questions),
  };
}

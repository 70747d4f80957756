import type { SummarizeInput } from '../extraction/task-contracts.js';
import { centroid, dot } from '../math/vector-math.js';
import { mergeChannels } from '../model/audience.js';
import { MeterPurpose } from '../model/enums.js';
import { quoteUntrusted } from '../text/untrusted.js';
import type { IngestDeps } from './deps.js';

const MAX_DIGEST_FACTS = 40;
const CENTROID_FACTS = 20;
const MAX_WORDS = 120;

const SYSTEM = `Write a short profile of one member of a chat community from the facts you are given: one paragraph, third person, at most 120 words, using only what the facts say. No lists, no speculation.`;

/**
 * Regenerates a subject's digest when at least `digestEveryFacts` facts were added since the last
 * one. A digest is kept only if its embedding lies close to the centroid of the facts it summarises.
 */
export async function refreshDigest(
  deps: IngestDeps,
  guildId: string,
  subjectId: string | null,
  subjectName: string,
  force = false,
): Promise<'updated' | 'kept' | 'skipped'> {
  const every = deps.config.extraction.digestEveryFacts;
  const model = deps.smallLlm;
  if (!model || (every === 0 && !force)) return 'skipped';
  // The three reads are independent: one round trip, not three.
  const [optedOutIds, top, current] = await Promise.all([
    deps.store.consent.optedOutUsers(guildId),
    deps.store.facts.topStrength(
      subjectId === null ? { guildId, serverOnly: true } : { guildId, subjectIds: [subjectId] },
      deps.config.lifecycle.maxFactsPerUser,
    ),
    deps.store.digests.getDigest(guildId, subjectId),
  ]);
  const optedOut = new Set(optedOutIds);
  // Never summarise what a member who opted out (or a bot) said about the subject.
  const facts = top.filter((f) => {
    const speaker = f.attribution.speakerId;
    return speaker === null || (!optedOut.has(speaker) && !deps.isBot(speaker));
  });
  if (facts.length < 2) return 'skipped';
  if (!force && facts.length - (current?.sourceFactCount ?? 0) < every) return 'skipped';
  const summarised = facts.slice(0, MAX_DIGEST_FACTS);
  const input: SummarizeInput = {
    subjectName,
    facts: summarised.map((f) => f.text),
    maxWords: MAX_WORDS,
  };
  const response = await model.complete({
    messages: [
      { role: 'system', content: SYSTEM },
      {
        role: 'user',
        content: `Member: ${quoteUntrusted(subjectName)}\nFacts:\n${input.facts.map((f) => `- ${quoteUntrusted(f)}`).join('\n')}`,
      },
    ],
    purpose: MeterPurpose.SUMMARIZE,
    maxTokens: 400,
    responseFormat: { type: 'text' },
    guildId,
    task: { kind: 'summarize', input },
  });
  // The charge goes out beside the digest's write (one round trip, not two, on a remote store) and
  // is awaited before the refresh returns, so a failed charge is still reported.
  const charged = deps.budgets.charge(guildId, response.promptTokens);
  charged.catch(() => undefined);
  try {
    const text = response.text.trim().split(/\s+/).slice(0, MAX_WORDS).join(' ');
    if (text.length < 12) return 'kept';
    const vectors = await deps.embedder.embed([text, ...facts.slice(0, CENTROID_FACTS).map((f) => f.text)]);
    const [summary, ...factVectors] = vectors;
    const dims = summary?.length ?? 0;
    if (!summary || dot(summary, centroid(factVectors, dims)) < deps.config.extraction.digestSanityThreshold)
      return 'kept';
    await deps.store.digests.putDigest({
      guildId,
      subjectId,
      text,
      generatedAt: deps.clock.now(),
      sourceFactCount: facts.length,
      channels: mergeChannels(...summarised.map((f) => f.channels)),
    });
    return 'updated';
  } finally {
    await charged;
  }
}

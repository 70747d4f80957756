import type { SummarizeInput } from '../extraction/task-contracts.js';
import { centroid, dot } from '../math/vector-math.js';
import { mergeChannels } from '../model/audience.js';
import { MeterPurpose } from '../model/enums.js';
import type { Fact } from '../model/fact.js';
import type { Digest } from '../model/graph.js';
import { quiet } from '../recall/recall-session.js';
import { quoteUntrusted } from '../text/untrusted.js';
import type { IngestDeps } from './deps.js';

const MAX_DIGEST_FACTS = 40;
const CENTROID_FACTS = 20;
const MAX_WORDS = 120;

const SYSTEM = `Write a short profile of one member of a chat community from the facts you are given: one paragraph, third person, at most 120 words, using only what the facts say. No lists, no speculation.`;

type Outcome = 'updated' | 'kept' | 'skipped';

/** What a refresh reads about one subject. */
interface DigestInputs {
  readonly optedOut: readonly string[];
  readonly top: readonly Fact[];
  readonly current: Digest | null;
}

const enabled = (deps: IngestDeps, force: boolean) =>
  deps.smallLlm !== null && (force || deps.config.extraction.digestEveryFacts > 0);

/** The subject's strongest facts and current digest, with the guild's opt-outs: one wave. */
async function readInputs(
  deps: IngestDeps,
  guildId: string,
  subjectId: string | null,
  optedOut: Promise<string[]>,
): Promise<DigestInputs> {
  const [o, top, current] = await Promise.all([
    optedOut,
    deps.store.facts.topStrength(
      subjectId === null ? { guildId, serverOnly: true } : { guildId, subjectIds: [subjectId] },
      deps.config.lifecycle.maxFactsPerUser,
    ),
    deps.store.digests.getDigest(guildId, subjectId),
  ]);
  return { optedOut: o, top, current };
}

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
): Promise<Outcome> {
  if (!enabled(deps, force)) return 'skipped';
  const inputs = await readInputs(deps, guildId, subjectId, deps.store.consent.optedOutUsers(guildId));
  return summarise(deps, guildId, subjectId, subjectName, force, inputs);
}

/**
 * The digests of a commit's subjects: every subject's reads go out together (one round trip on a
 * remote store, not one per subject), then each summary in turn. `wrote` says whether any digest
 * may have been written (a refresh that failed counts: its write may have landed).
 */
export async function refreshDigests(
  deps: IngestDeps,
  guildId: string,
  subjects: readonly (string | null)[],
  nameOf: (subjectId: string | null) => string,
): Promise<{ readonly calls: number; readonly wrote: boolean }> {
  const unique = [...new Set(subjects)];
  let calls = 0;
  let wrote = false;
  if (unique.length === 0 || !enabled(deps, false)) return { calls, wrote };
  const optedOut = deps.store.consent.optedOutUsers(guildId);
  const reads = unique.map((subjectId) => ({
    subjectId,
    inputs: quiet(readInputs(deps, guildId, subjectId, optedOut)),
  }));
  for (const { subjectId, inputs } of reads) {
    try {
      const outcome = await summarise(deps, guildId, subjectId, nameOf(subjectId), false, await inputs);
      if (outcome !== 'skipped') calls++;
      if (outcome === 'updated') wrote = true;
    } catch (error) {
      wrote = true;
      deps.logger?.({ level: 'warn', event: 'digest.failed', data: { guildId }, error });
    }
  }
  return { calls, wrote };
}

async function summarise(
  deps: IngestDeps,
  guildId: string,
  subjectId: string | null,
  subjectName: string,
  force: boolean,
  { optedOut: optedOutIds, top, current }: DigestInputs,
): Promise<Outcome> {
  const every = deps.config.extraction.digestEveryFacts;
  const model = deps.smallLlm;
  if (!model) return 'skipped';
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

import type { MemoryConfig } from '../config/schema.js';
import type { ExtractionOutput, ProposedFact } from '../extraction/extraction-contract.js';
import { mergeChannels } from '../model/audience.js';
import { SourceRole } from '../model/enums.js';
import type { SourceRef } from '../model/fact.js';
import type { StoredMessage } from '../model/message.js';
import { normalizeText } from '../text/analyze.js';
import { normalizeName } from '../text/untrusted.js';
import { decideAttribution, sharedNames, subjectIsIdentified } from './attribution.js';
import type { BatchContext } from './batch-context.js';
import type { Candidate, CandidateRelation, RelationEnd } from './candidate.js';
import { messageUrl } from './deps.js';
import { confidenceGate, ephemeralShareGate, hygieneGate, injectionGate, plagiarismGate } from './gates.js';

export interface VettingResult {
  readonly candidates: Candidate[];
  /** Rejections by reason. */
  readonly rejected: Record<string, number>;
}

/** Fact text as stored: no control, zero-width, bidi or format characters, one line. */
function cleanFactText(text: string): string {
  return normalizeName(text);
}

function sourcesFor(op: ProposedFact, ctx: BatchContext): { refs: SourceRef[]; cited: StoredMessage[] } {
  const indexes = [...new Set(op.sourceMessageIndexes)].filter((i) => ctx.byIndex.has(i));
  const cited = (indexes.length > 0 ? indexes : [1])
    .map((i) => ctx.byIndex.get(i))
    .filter((m): m is StoredMessage => m !== undefined);
  const refs = cited.slice(0, 8).map((m, i) => ({
    messageId: m.messageId,
    channelId: m.channelId,
    authorId: m.authorId,
    authorName: ctx.roster.nameOfUser(m.authorId) ?? normalizeName(m.authorDisplayName || m.authorUsername),
    snippet: m.content.slice(0, 280),
    url: messageUrl(m.guildId, m.channelId, m.messageId),
    role: i === 0 ? SourceRole.PRIMARY : SourceRole.SUPPORTING,
    createdAt: m.createdAt,
  }));
  return { refs, cited };
}

function end(
  ctx: BatchContext,
  token: string | null,
  entity: string | null,
  fallbackUser: string | null,
): RelationEnd | null {
  if (token) {
    const user = ctx.roster.userOf(token);
    if (typeof user === 'string') return { kind: 'user', userId: user };
    if (user === undefined) return null;
  }
  const name = entity ? normalizeName(entity) : '';
  if (name.length > 0) return { kind: 'entity', name: name.slice(0, 64) };
  return fallbackUser ? { kind: 'user', userId: fallbackUser } : null;
}

/**
 * Turns model operations into candidates: only minted tokens, allowed subjects, and texts that
 * pass hygiene, ephemeral-share, plagiarism, confidence and prompt-injection gates; at most
 * `maxCandidatesPerBatch` per member batch in the call; exact in-batch duplicates dropped.
 */
export function vetOperations(
  output: ExtractionOutput,
  ctx: BatchContext,
  config: MemoryConfig['extraction'],
): VettingResult {
  const rejected: Record<string, number> = {};
  const reject = (reason: string) => {
    rejected[reason] = (rejected[reason] ?? 0) + 1;
  };
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  const ops = output.operations;
  const shared = sharedNames(ctx.roster);
  const mayVouch = (userId: string) => ctx.roster.tokenOf(userId) !== undefined && !ctx.blocked.has(userId);
  const limit = config.maxCandidatesPerBatch * Math.max(1, ctx.batches);
  if (ops.length > limit) rejected['over_candidate_limit'] = ops.length - limit;
  for (const op of ops.slice(0, limit)) {
    const subject = ctx.roster.userOf(op.subjectToken);
    if (subject === undefined) {
      reject('unknown_subject_token');
      continue;
    }
    if (ctx.input.scope === 'community' && subject !== null) {
      reject('member_fact_in_community_pass');
      continue;
    }
    let speaker: string | null = null;
    if (op.speakerToken !== null && op.speakerToken.trim() !== '') {
      const s = ctx.roster.userOf(op.speakerToken);
      if (s === undefined) {
        reject('unknown_speaker_token');
        continue;
      }
      speaker = s === subject ? null : s;
    }
    if (subject !== null && ctx.blocked.has(subject)) {
      reject('subject_not_allowed');
      continue;
    }
    const { refs, cited } = sourcesFor(op, ctx);
    if (
      subject !== null &&
      shared.has(subject) &&
      !subjectIsIdentified(subject, cited, ctx.byIndex.values())
    ) {
      reject('ambiguous_subject');
      continue;
    }
    // Who said it comes from the authors of the cited messages, whatever the model claims.
    const attribution = decideAttribution(subject, speaker, cited, mayVouch);
    if (!attribution.ok) {
      reject(attribution.reason);
      continue;
    }
    speaker = attribution.speakerId;
    const text = cleanFactText(ctx.roster.bindNames(op.text));
    const citedText = cited.map((m) => m.content);
    const verdict = [
      hygieneGate(text),
      ephemeralShareGate(text),
      injectionGate(text, citedText),
      plagiarismGate(text, citedText),
      confidenceGate(text, op.confidence, config.minConfidence, config.hearsayMinConfidence),
    ].find((v) => !v.ok);
    if (verdict && !verdict.ok) {
      reject(verdict.reason);
      continue;
    }
    const normalizedText = normalizeText(text);
    const dedupKey = `${subject ?? ''}\u0000${normalizedText}`;
    if (seen.has(dedupKey)) {
      reject('duplicate_in_batch');
      continue;
    }
    seen.add(dedupKey);
    const relations: CandidateRelation[] = [];
    for (const r of op.relations) {
      const from = end(ctx, r.fromToken, r.fromEntity, subject);
      const to = end(ctx, r.toToken, r.toEntity, null);
      if (from && to) relations.push({ verb: r.verb, from, to });
    }
    const mentioned = new Set<string>();
    for (const m of cited)
      for (const id of m.mentionIds) if (!ctx.blocked.has(id) && ctx.roster.tokenOf(id)) mentioned.add(id);
    if (speaker) mentioned.add(speaker);
    if (subject) mentioned.delete(subject);
    candidates.push({
      subjectId: subject,
      speakerId: speaker,
      speakerName: speaker ? (ctx.roster.nameOfUser(speaker) ?? null) : null,
      text,
      normalizedText,
      category: op.category,
      confidence: op.confidence,
      sources: refs,
      channels: mergeChannels(cited.map((m) => ({ channelId: m.channelId, parentId: m.threadParentId }))),
      relatedUserIds: [...mentioned],
      entities: op.entities
        .map((e) => ({ name: normalizeName(e.name), kind: e.kind }))
        .filter((e) => e.name.length > 0),
      relations,
      origin: 'extraction',
      actorId: null,
    });
  }
  return { candidates, rejected };
}

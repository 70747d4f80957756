/**
 * The heuristic extractor: rule-based, English, offline. For each message it declines whatever
 * it cannot read with confidence (questions, hypotheticals, sarcasm, links, commands, injection,
 * platform ids), then matches clauses against rule families and phrases each match in the third
 * person with display names.
 */

import { classifyCommandHeuristically } from '../../extraction/command-rules.js';
import {
  type ExtractionInput,
  type ExtractionMessage,
  type ExtractionOutput,
  type ProposedEntity,
  type ProposedFact,
  type ProposedRelation,
  type RosterEntry,
  SERVER_TOKEN,
} from '../../extraction/extraction-contract.js';
import { meaningfulLetters, normalizeChat, splitSentences } from './chat-normalize.js';
import { splitClauses, stripFillers } from './clause-split.js';
import {
  declineMessage,
  isHypothetical,
  isMediaShare,
  isQuestion,
  isSarcastic,
  isTransient,
} from './declines.js';
import { pickText } from './output-checks.js';
import type { Draft } from './rule-types.js';
import { SELF_RULES } from './rules/index.js';
import { matchServerFact } from './rules/server-rules.js';
import {
  type ClauseSubject,
  matchCalledLabel,
  matchNameCalling,
  resolveSubject,
  type SubjectContext,
} from './rules/third-party.js';

/** The pipeline vets at most this many candidates per batch. */
export const MAX_OPERATIONS = 12;
/** Claims about someone else are capped at this confidence. */
export const THIRD_PARTY_MAX_CONFIDENCE = 0.7;
const HEDGE_PENALTY = 0.15;
/** Durable statements are short; longer runs (copypasta, logs) are skipped, which also bounds regex work. */
const MAX_SENTENCE_CHARS = 600;
const MAX_CLAUSE_CHARS = 240;

/** Extract durable facts from a batch; never throws, returns no operations for noise. */
export function extractHeuristically(input: ExtractionInput): ExtractionOutput {
  const operations: ProposedFact[] = [];
  const seen = new Set<string>();
  for (const message of input.messages) {
    for (const op of extractMessage(message, input)) {
      const key = `${op.subjectToken}\u0000${op.text.toLowerCase()}`;
      if (seen.has(key)) continue;
      seen.add(key);
      operations.push(op);
    }
  }
  return { operations: operations.slice(0, MAX_OPERATIONS) };
}

function extractMessage(message: ExtractionMessage, input: ExtractionInput): ProposedFact[] {
  const author = input.roster.find((r) => r.token === message.authorToken && r.token !== SERVER_TOKEN);
  if (author === undefined || author.name.trim().length === 0) return [];
  if (declineMessage(message.content)) return [];
  if (classifyCommandHeuristically(message.content).action !== 'none') return [];
  const { text } = normalizeChat(message.content);
  if (meaningfulLetters(text) < 3) return [];
  // Members this message mentions come first, so a name two members share means the mentioned one.
  const mentioned = new Set(message.mentionTokens);
  const others = input.roster
    .filter((r) => r.token !== author.token && r.token !== SERVER_TOKEN && r.name.trim().length > 0)
    .sort((a, b) => Number(mentioned.has(b.token)) - Number(mentioned.has(a.token)));
  const addressees = new Set(message.mentionTokens.filter((t) => t !== author.token));
  const addressee = addressees.size === 1 ? (others.find((r) => addressees.has(r.token)) ?? null) : null;
  const ctx: SubjectContext = { author, others, addressee };
  const out: ProposedFact[] = [];
  const emit = (d: Draft, subject: ClauseSubject | null, hedged: boolean): void => {
    const op = toOperation(d, subject, hedged, message, input.roster);
    if (op !== null) out.push(op);
  };

  for (const sentence of splitSentences(text)) {
    if (sentence.text.length > MAX_SENTENCE_CHARS) continue;
    const stripped = stripFillers(sentence.text);
    if (isQuestion(withoutVocative(stripped.text, others), sentence.question)) continue;
    if (isMediaShare(sentence.text) || isHypothetical(sentence.text) || isSarcastic(sentence.text)) continue;
    const server = matchServerFact(stripped.text, input.batchDate);
    if (server !== null) {
      emit(server, null, false);
      continue;
    }
    if (input.scope === 'community') continue;
    let aboutAddressee = false;
    for (const rawClause of splitClauses(stripped.text)) {
      const clause = stripFillers(rawClause);
      if (clause.text.length === 0 || clause.text.length > MAX_CLAUSE_CHARS) continue;
      const subject = resolveSubject(clause.text, ctx);
      if (subject === null) continue;
      const inner = stripFillers(subject.text);
      const resolved = { ...subject, text: inner.text };
      const hedged = stripped.hedged || clause.hedged || inner.hedged;
      const d = matchSelfRules(resolved, hedged, isTransient(rawClause), input.batchDate);
      const member = others.find((r) => r.token === subject.token);
      const fallback =
        d === null && subject.thirdParty && member !== undefined
          ? matchCalledLabel(resolved.text, member, author.name)
          : null;
      if (d !== null) emit(d, resolved, hedged);
      else if (fallback !== null) emit(fallback, { ...resolved, thirdParty: false }, hedged);
      if ((d !== null || fallback !== null) && subject.token === addressee?.token) aboutAddressee = true;
    }
    if (!aboutAddressee && addressee !== null) {
      const called = matchNameCalling(sentence.text, addressee, author.name);
      if (called !== null)
        emit(called, { token: addressee.token, name: addressee.name, thirdParty: false, text: '' }, false);
    }
  }
  return out.map((op) =>
    op.subjectToken !== author.token && op.subjectToken !== SERVER_TOKEN
      ? { ...op, speakerToken: author.token }
      : op,
  );
}

function matchSelfRules(
  subject: ClauseSubject,
  hedged: boolean,
  transient: boolean,
  batchDate: string,
): Draft | null {
  for (const rule of SELF_RULES) {
    if (transient && rule.temporalOk !== true) continue;
    const d = rule.match({ text: subject.text, hedged, transient }, { name: subject.name, batchDate });
    if (d !== null) return d;
  }
  return null;
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Leading "@bob" or "bob," removed, to see whether the rest is a question. */
function withoutVocative(sentence: string, others: readonly RosterEntry[]): string {
  let text = sentence;
  for (const member of others)
    text = text.replace(new RegExp(`^@?${escapeRe(member.name)}[,:]?\\s+`, 'i'), '');
  return text.replace(/^(?:@[\w.-]+[,:]?\s*)+/, '').trim();
}

function toOperation(
  d: Draft,
  subject: ClauseSubject | null,
  hedged: boolean,
  message: ExtractionMessage,
  roster: readonly RosterEntry[],
): ProposedFact | null {
  const thirdParty = subject?.thirdParty === true;
  // Who said it is the speaker (set by the caller) and printed by the memory block, never in the text.
  const text = pickText(d.texts, message.content);
  if (text === null) return null;
  let confidence = d.confidence - (hedged ? HEDGE_PENALTY : 0);
  if (thirdParty) confidence = Math.min(confidence, THIRD_PARTY_MAX_CONFIDENCE - (hedged ? 0.1 : 0));
  const subjectToken = subject?.token ?? SERVER_TOKEN;
  return {
    subjectToken,
    speakerToken: null,
    text,
    category: d.category,
    confidence: Math.round(confidence * 100) / 100,
    sourceMessageIndexes: [message.index],
    ...edges(d, subjectToken, roster),
  };
}

/**
 * Entities and relations of a draft. An object that names a roster member ("I love Bob")
 * becomes a person-to-person edge to that member's token instead of an entity.
 */
function edges(
  d: Draft,
  subjectToken: string,
  roster: readonly RosterEntry[],
): Pick<ProposedFact, 'entities' | 'relations'> {
  const entities: ProposedEntity[] = [];
  const relations: ProposedRelation[] = [];
  const targets = d.relateAll === true ? d.entities : d.entities.slice(0, 1);
  for (const entity of d.entities) {
    const member = roster.find(
      (r) =>
        r.token !== SERVER_TOKEN &&
        r.token !== subjectToken &&
        r.name.toLowerCase() === entity.name.toLowerCase(),
    );
    const related = d.verb !== null && targets.includes(entity);
    if (member !== undefined) {
      if (related && d.verb !== null)
        relations.push({
          verb: d.verb,
          fromToken: subjectToken,
          toToken: member.token,
          fromEntity: null,
          toEntity: null,
        });
      continue;
    }
    entities.push(entity);
    if (related && d.verb !== null)
      relations.push({
        verb: d.verb,
        fromToken: subjectToken,
        toToken: null,
        fromEntity: null,
        toEntity: entity.name,
      });
  }
  return { entities, relations };
}

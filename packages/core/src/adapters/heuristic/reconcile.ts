/**
 * Heuristic reconcile: for each collision, NOOP when the candidate restates an existing fact,
 * INVALIDATE when it contradicts one (same aspect, polarity flip or a new value), UPDATE with a
 * merged text when it refines the same aspect, else ADD.
 */
import type {
  ReconcileCollision,
  ReconcileDecision,
  ReconcileInput,
  ReconcileOutput,
} from '../../extraction/task-contracts.js';
import { indexTerms } from '../../text/analyze.js';
import { aspectOf, isSingleValued, polarityFlip, sameAspect } from '../../text/aspects.js';
import { STATE_CHANGE } from '../../text/state-change.js';

/** Share of the candidate's content terms already present in the existing fact. */
export const RESTATEMENT_COVERAGE = 0.8;
const MAX_TEXT = 400;

function contentTerms(text: string, subjectName: string): Set<string> {
  const name = new Set(indexTerms(subjectName));
  const cleaned = text.replace(/\s*\(according to [^)]*\)/gi, '');
  return new Set(indexTerms(cleaned).filter((t) => !name.has(t)));
}

function coverage(of: Set<string>, by: Set<string>): number {
  if (of.size === 0) return 0;
  let hit = 0;
  for (const t of of) if (by.has(t)) hit++;
  return hit / of.size;
}

/** The candidate adds nothing the existing fact does not already say. */
export function restates(candidate: string, existing: string, subjectName = ''): boolean {
  const c = contentTerms(candidate, subjectName);
  const e = contentTerms(existing, subjectName);
  if (c.size === 0) return candidate.trim().toLowerCase() === existing.trim().toLowerCase();
  return coverage(c, e) >= RESTATEMENT_COVERAGE && coverage(e, c) >= 0.5;
}

/**
 * Text stored by an UPDATE: the candidate for a single-valued aspect (the newer state wins) or
 * when it covers the old fact; otherwise both, joined.
 */
export function mergeTexts(existing: string, candidate: string, subjectName = ''): string {
  const e = contentTerms(existing, subjectName);
  const c = contentTerms(candidate, subjectName);
  if (isSingleValued(candidate) || coverage(e, c) >= 0.8) return candidate;
  const joined = `${existing.replace(/[\s.]+$/, '')}; ${candidate.replace(/[\s.]+$/, '')}`;
  return joined.length <= MAX_TEXT ? joined : candidate;
}

function decide(collision: ReconcileCollision): ReconcileDecision {
  const { candidateIndex, text, subjectName, existing } = collision;
  const base = { candidateIndex, targetId: null, text: null } as const;
  const restated = existing.find((e) => restates(text, e.text, subjectName) && !polarityFlip(text, e.text));
  const contradicted = existing.find((e) => polarityFlip(text, e.text));
  if (contradicted !== undefined && (restated === undefined || STATE_CHANGE.test(text))) {
    const family = aspectOf(text)?.family ?? 'fact';
    return {
      ...base,
      kind: 'INVALIDATE',
      targetId: contradicted.id,
      reason: `contradicts the same ${family} aspect`,
    };
  }
  if (restated !== undefined)
    return { ...base, kind: 'NOOP', targetId: restated.id, reason: 'restates an existing fact' };
  const refined = existing.find((e) => sameAspect(text, e.text));
  if (refined !== undefined) {
    const family = aspectOf(text)?.family ?? 'fact';
    return {
      ...base,
      kind: 'UPDATE',
      targetId: refined.id,
      text: mergeTexts(refined.text, text, subjectName),
      reason: `refines the same ${family} aspect`,
    };
  }
  return { ...base, kind: 'ADD', reason: 'no existing fact covers it' };
}

/** One decision per collision, in input order; deterministic. */
export function reconcileHeuristically(input: ReconcileInput): ReconcileOutput {
  return { decisions: input.collisions.map(decide) };
}

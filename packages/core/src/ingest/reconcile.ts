import type { MemoryConfig } from '../config/schema.js';
import {
  type ReconcileCollision,
  type ReconcileDecision,
  ReconcileKind,
  reconcileOutputSchema,
} from '../extraction/task-contracts.js';
import { dot } from '../math/vector-math.js';
import { MeterPurpose } from '../model/enums.js';
import type { Fact } from '../model/fact.js';
import type { ChatLLM } from '../ports/chat-llm.js';
import { queryTerms } from '../text/analyze.js';
import { polarityFlip } from '../text/aspects.js';
import { STATE_CHANGE } from '../text/state-change.js';
import type { Candidate } from './candidate.js';
import type { IngestDeps } from './deps.js';
import { RECONCILE_JSON_SCHEMA, renderReconcilePrompt } from './reconcile-prompt.js';
import { callStructured } from './structured-call.js';

export const MAX_NEIGHBOURS = 6;

/** What to do with one candidate. */
export type Action =
  | { readonly kind: 'add'; readonly candidate: Candidate; readonly vector: Float32Array }
  | { readonly kind: 'reinforce'; readonly candidate: Candidate; readonly target: Fact }
  | {
      readonly kind: 'supersede';
      readonly candidate: Candidate;
      readonly vector: Float32Array;
      readonly target: Fact;
      readonly mergedText: string | null;
      readonly reason: string;
    }
  | {
      readonly kind: 'invalidate';
      readonly candidate: Candidate;
      readonly vector: Float32Array;
      readonly target: Fact;
      readonly reason: string;
    };

export interface ReconcileResult {
  readonly actions: Action[];
  readonly droppedParaphrases: number;
  readonly llmCalls: number;
}

interface Pending {
  readonly candidate: Candidate;
  readonly vector: Float32Array;
  readonly neighbours: readonly { readonly fact: Fact; readonly score: number }[];
}

/**
 * Plans reconciliation of a batch's candidates against memory (SPEC §4 step 8): paraphrases
 * within the batch are dropped, exact duplicates and near-identical neighbours reinforce, a
 * deterministic rule retires contradicted facts, and the remaining collisions go to ONE batched
 * model call. With no usable decision the nearest neighbour is reinforced — never a blind duplicate.
 */
export async function reconcile(
  deps: IngestDeps,
  guildId: string,
  candidates: readonly Candidate[],
  options: { readonly allowModel: boolean; readonly subjectName: (subjectId: string | null) => string },
): Promise<ReconcileResult> {
  const cfg = deps.config.extraction;
  if (candidates.length === 0) return { actions: [], droppedParaphrases: 0, llmCalls: 0 };
  // Plan in message order so a later statement in the same batch wins over an earlier one.
  const ordered = [...candidates].sort((a, b) => firstSourceAt(a) - firstSourceAt(b));
  const optedOut = new Set(await deps.store.consent.optedOutUsers(guildId));
  const vectors = await deps.embedder.embed(ordered.map((c) => c.text));
  const actions: Action[] = [];
  const kept: { candidate: Candidate; vector: Float32Array }[] = [];
  const collisions: Pending[] = [];
  let dropped = 0;
  for (const [i, candidate] of ordered.entries()) {
    const vector = vectors[i] as Float32Array;
    if (
      kept.some(
        (k) =>
          k.candidate.subjectId === candidate.subjectId &&
          dot(k.vector, vector) >= cfg.nearDuplicateThreshold,
      )
    ) {
      dropped++;
      continue;
    }
    const overridden = supersedeWithinBatch(actions, kept, candidate, vector);
    if (overridden === 'dropped_earlier') dropped++;
    if (overridden === 'retires_stored') continue;
    kept.push({ candidate, vector });
    const duplicate = await deps.store.facts.findByNormalizedText(
      guildId,
      candidate.subjectId,
      candidate.normalizedText,
    );
    if (duplicate) {
      actions.push({ kind: 'reinforce', candidate, target: duplicate });
      continue;
    }
    const { colliding: neighbours, related } = await neighbourPool(
      deps,
      guildId,
      candidate,
      vector,
      cfg,
      optedOut,
    );
    // A deterministic contradiction (state change or polarity flip on the same aspect) wins over
    // lexical similarity: "quit the barista job" is close to "works as a barista" but retires it.
    const contradicted = related.find((f) => polarityFlip(candidate.text, f.text));
    if (contradicted) {
      actions.push({
        kind: 'invalidate',
        candidate,
        vector,
        target: contradicted,
        reason: 'contradiction_rule',
      });
      continue;
    }
    const top = neighbours[0];
    if (top && top.score >= cfg.nearDuplicateThreshold) {
      actions.push({ kind: 'reinforce', candidate, target: top.fact });
      continue;
    }
    if (!top) {
      actions.push({ kind: 'add', candidate, vector });
      continue;
    }
    collisions.push({ candidate, vector, neighbours });
  }
  if (collisions.length === 0) return { actions, droppedParaphrases: dropped, llmCalls: 0 };

  const model = options.allowModel ? deps.smallLlm : null;
  const decided = model ? await decide(deps, model, guildId, collisions, options.subjectName) : null;
  for (const [i, pending] of collisions.entries()) {
    actions.push(toAction(pending, decided?.byCandidate.get(i), decided?.targets ?? new Map()));
  }
  return { actions, droppedParaphrases: dropped, llmCalls: decided?.calls ?? 0 };
}

/**
 * Neighbours of a candidate among the same subject's active facts: nearest by vector (colliding
 * when ≥ collisionThreshold, or ≥ collisionFloor with state-change phrasing or the same category)
 * plus keyword matches. All of them are checked by the free contradiction rule; only the colliding
 * ones go to the model.
 */
function firstSourceAt(c: Candidate): number {
  const times = c.sources.map((s) => s.createdAt?.getTime() ?? Number.POSITIVE_INFINITY);
  return times.length > 0 ? Math.min(...times) : Number.POSITIVE_INFINITY;
}

/**
 * A candidate that contradicts an earlier candidate of the same subject in this batch replaces it:
 * an earlier planned add is dropped (the later message wins); an earlier planned reinforcement of
 * a stored fact becomes a retirement of that fact by the new candidate.
 */
function supersedeWithinBatch(
  actions: Action[],
  kept: { candidate: Candidate; vector: Float32Array }[],
  candidate: Candidate,
  vector: Float32Array,
): 'dropped_earlier' | 'retires_stored' | null {
  const index = actions.findIndex(
    (a) => a.candidate.subjectId === candidate.subjectId && polarityFlip(candidate.text, a.candidate.text),
  );
  if (index < 0) return null;
  const earlier = actions[index] as Action;
  actions.splice(index, 1);
  const k = kept.findIndex((x) => x.candidate === earlier.candidate);
  if (k >= 0) kept.splice(k, 1);
  if (earlier.kind === 'add') return 'dropped_earlier';
  const target = earlier.target;
  actions.push({ kind: 'invalidate', candidate, vector, target, reason: 'contradiction_rule' });
  kept.push({ candidate, vector });
  return 'retires_stored';
}

async function neighbourPool(
  deps: IngestDeps,
  guildId: string,
  candidate: Candidate,
  vector: Float32Array,
  cfg: MemoryConfig['extraction'],
  optedOut: ReadonlySet<string>,
): Promise<{ colliding: { fact: Fact; score: number }[]; related: Fact[] }> {
  const scope =
    candidate.subjectId === null ? { serverOnly: true as const } : { subjectIds: [candidate.subjectId] };
  const [hits, lexical] = await Promise.all([
    deps.store.vectors.search({ kind: 'fact', guildId, vector, limit: MAX_NEIGHBOURS, ...scope }),
    deps.store.facts.searchText({ guildId, ...scope }, queryTerms(candidate.text), MAX_NEIGHBOURS),
  ]);
  const facts = new Map(
    (
      await deps.store.facts.get(
        guildId,
        hits.map((h) => h.id),
      )
    ).map((f) => [f.id, f]),
  );
  // Statements of members who opted out are neither shown to the model nor retired by others.
  const live = (f: Fact | undefined): f is Fact =>
    f !== undefined &&
    f.supersededById === null &&
    f.validUntil === null &&
    (f.attribution.speakerId === null || !optedOut.has(f.attribution.speakerId));
  const changing = STATE_CHANGE.test(candidate.text);
  const colliding = hits
    .map((h) => ({ fact: facts.get(h.id), score: h.score }))
    .filter((n): n is { fact: Fact; score: number } => live(n.fact))
    .filter(
      (n) =>
        n.score >= cfg.collisionThreshold ||
        (n.score >= cfg.collisionFloor &&
          (changing || STATE_CHANGE.test(n.fact.text) || n.fact.category === candidate.category)),
    );
  const related = new Map<string, Fact>();
  for (const h of hits) {
    const f = facts.get(h.id);
    if (live(f)) related.set(f.id, f);
  }
  for (const t of lexical) if (live(t.fact)) related.set(t.fact.id, t.fact);
  return { colliding, related: [...related.values()] };
}

interface Decisions {
  readonly byCandidate: Map<number, ReconcileDecision>;
  readonly targets: Map<string, Fact>;
  readonly calls: number;
}

async function decide(
  deps: IngestDeps,
  model: ChatLLM,
  guildId: string,
  collisions: readonly Pending[],
  subjectName: (subjectId: string | null) => string,
): Promise<Decisions | null> {
  const targets = new Map<string, Fact>();
  let next = 0;
  const input: ReconcileCollision[] = collisions.map((p, i) => ({
    candidateIndex: i,
    subjectName: subjectName(p.candidate.subjectId),
    text: p.candidate.text,
    category: p.candidate.category,
    existing: p.neighbours.map((n) => {
      const id = String(next++);
      targets.set(id, n.fact);
      return { id, text: n.fact.text, category: n.fact.category };
    }),
  }));
  try {
    const result = await callStructured({
      llm: model,
      schema: reconcileOutputSchema,
      jsonSchema: RECONCILE_JSON_SCHEMA,
      mode: deps.structuredMode,
      name: 'reconcile_output',
      messages: renderReconcilePrompt({ collisions: input }),
      purpose: MeterPurpose.RECONCILE,
      maxTokens: Math.min(4000, 500 + 250 * collisions.length),
      guildId,
      task: { kind: 'reconcile', input: { collisions: input } },
      onUsage: (tokens) => deps.budgets.charge(guildId, tokens),
    });
    const byCandidate = new Map<number, ReconcileDecision>();
    for (const d of result.value.decisions) {
      if (d.candidateIndex < 0 || d.candidateIndex >= collisions.length || byCandidate.has(d.candidateIndex))
        continue;
      byCandidate.set(d.candidateIndex, d);
    }
    return { byCandidate, targets, calls: result.calls };
  } catch (error) {
    deps.logger?.({ level: 'warn', event: 'reconcile.failed', data: { guildId }, error });
    return null;
  }
}

function toAction(
  pending: Pending,
  decision: ReconcileDecision | undefined,
  targets: ReadonlyMap<string, Fact>,
): Action {
  const { candidate, vector } = pending;
  const nearest = pending.neighbours[0]?.fact as Fact;
  const target = decision?.targetId ? targets.get(decision.targetId) : undefined;
  const own = target && pending.neighbours.some((n) => n.fact.id === target.id) ? target : undefined;
  switch (decision?.kind) {
    case ReconcileKind.ADD:
      return { kind: 'add', candidate, vector };
    case ReconcileKind.UPDATE:
      if (own)
        return {
          kind: 'supersede',
          candidate,
          vector,
          target: own,
          mergedText: decision.text,
          reason: 'model_update',
        };
      break;
    case ReconcileKind.INVALIDATE:
      if (own) return { kind: 'invalidate', candidate, vector, target: own, reason: 'model_invalidate' };
      break;
    case ReconcileKind.NOOP:
      return { kind: 'reinforce', candidate, target: own ?? nearest };
    default:
      break;
  }
  return { kind: 'reinforce', candidate, target: nearest };
}

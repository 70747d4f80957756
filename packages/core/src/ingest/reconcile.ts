import { dot } from '../math/vector-math.js';
import { quiet, RecallSession } from '../recall/recall-session.js';
import { polarityFlip } from '../text/aspects.js';
import type { Candidate } from './candidate.js';
import type { IngestDeps } from './deps.js';
import type { Action, Pending, ReconcileResult } from './reconcile-actions.js';
import { decide, toAction } from './reconcile-decisions.js';
import { neighbourPool } from './reconcile-neighbours.js';

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
  options: {
    readonly allowModel: boolean;
    readonly subjectName: (subjectId: string | null) => string;
    /**
     * Records the prompt tokens of reconcile's model call. Default: charged through the budgets
     * before reconcile goes on. The batch passes one that only starts the write and waits for it
     * as for the extraction reply's charge (before its commit, or before "done"; see
     * batch-processor.ts).
     */
    readonly charge?: (promptTokens: number) => Promise<void>;
  },
): Promise<ReconcileResult> {
  const cfg = deps.config.extraction;
  if (candidates.length === 0) return { actions: [], droppedParaphrases: 0, llmCalls: 0 };
  // Plan in message order so a later statement in the same batch wins over an earlier one.
  const ordered = [...candidates].sort((a, b) => firstSourceAt(a) - firstSourceAt(b));
  // One opt-out read, and a fact that several candidates find as a neighbour read once.
  const reads = new RecallSession(deps.store, deps.embedder);
  // Each candidate's reads (its exact duplicate and its neighbours) depend only on the candidate
  // and on stored memory, which planning does not change: they run for every candidate at once,
  // not one candidate after another. A candidate the loop drops never looks at its results. The
  // duplicate checks need no vector and go out before the embedding; the neighbours are read
  // alongside them, not after: an added fact (the common case) waits one round trip less, and
  // the neighbours of a stored duplicate are read for nothing.
  const duplicates = ordered.map((candidate) =>
    quiet(deps.store.facts.findByNormalizedText(guildId, candidate.subjectId, candidate.normalizedText)),
  );
  const vectors = await deps.embedder.embed(ordered.map((c) => c.text));
  const lookups = ordered.map((candidate, i) => {
    const pool = neighbourPool(deps, guildId, candidate, vectors[i] as Float32Array, cfg, reads);
    return quiet(
      Promise.all([duplicates[i], pool]).then(([duplicate, neighbours]) => ({
        duplicate: duplicate ?? null,
        pool: duplicate ? null : neighbours,
      })),
    );
  });
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
    const { duplicate, pool } = await (lookups[i] as (typeof lookups)[number]);
    if (duplicate || !pool) {
      if (duplicate) actions.push({ kind: 'reinforce', candidate, target: duplicate });
      continue;
    }
    const { colliding: neighbours, related } = pool;
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
  const charge = options.charge ?? ((tokens: number) => deps.budgets.charge(guildId, tokens));
  const decided = model ? await decide(deps, model, guildId, collisions, options.subjectName, charge) : null;
  for (const [i, pending] of collisions.entries()) {
    actions.push(toAction(pending, decided?.byCandidate.get(i), decided?.targets ?? new Map()));
  }
  return { actions, droppedParaphrases: dropped, llmCalls: decided?.calls ?? 0 };
}

/** When the candidate's earliest source message was sent (undated sources sort last). */
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

import { ErrorCode, MemoryError } from '../errors/index.js';
import {
  type ReconcileCollision,
  type ReconcileDecision,
  ReconcileKind,
  reconcileOutputSchema,
} from '../extraction/task-contracts.js';
import { MeterPurpose } from '../model/enums.js';
import type { Fact } from '../model/fact.js';
import type { ChatLLM } from '../ports/chat-llm.js';
import type { IngestDeps } from './deps.js';
import type { Action, Pending } from './reconcile-actions.js';
import { RECONCILE_JSON_SCHEMA, renderReconcilePrompt } from './reconcile-prompt.js';
import { callStructured } from './structured-call.js';

export interface Decisions {
  readonly byCandidate: Map<number, ReconcileDecision>;
  readonly targets: Map<string, Fact>;
  readonly calls: number;
}

/**
 * Asks the model, in ONE call, what each colliding candidate does to its neighbours (shown to it
 * under short numeric ids, mapped back to facts by `targets`). Null when the model answered
 * nothing usable (output still invalid after its repair turn): its candidates then reinforce
 * their nearest neighbours. A call that got no answer throws instead, as an extraction call does,
 * and the batch is retried or dead-lettered: timeouts, 429 and 5xx after the adapter's retries,
 * and a request the endpoint refuses (LLM_CAPABILITY, a configuration to fix). Reinforcing there
 * would merge distinct facts into their neighbours for good, silently.
 */
export async function decide(
  deps: IngestDeps,
  model: ChatLLM,
  guildId: string,
  collisions: readonly Pending[],
  subjectName: (subjectId: string | null) => string,
  charge: (promptTokens: number) => Promise<void>,
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
      onUsage: charge,
    });
    const byCandidate = new Map<number, ReconcileDecision>();
    for (const d of result.value.decisions) {
      if (d.candidateIndex < 0 || d.candidateIndex >= collisions.length || byCandidate.has(d.candidateIndex))
        continue;
      byCandidate.set(d.candidateIndex, d);
    }
    return { byCandidate, targets, calls: result.calls };
  } catch (error) {
    // Only an answer that could not be used falls back; a call that got none fails the batch.
    if (!MemoryError.is(error, ErrorCode.LLM_OUTPUT_INVALID)) throw error;
    deps.logger?.({ level: 'warn', event: 'reconcile.failed', data: { guildId }, error });
    return null;
  }
}

/**
 * The action for one collision, from the model's decision. An update or invalidation must target
 * one of the candidate's own neighbours; otherwise (or with no decision) the nearest is reinforced.
 */
export function toAction(
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

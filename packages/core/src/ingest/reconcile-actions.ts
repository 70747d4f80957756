import type { Fact } from '../model/fact.js';
import type { Candidate } from './candidate.js';

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

/** A candidate that collides with stored facts: the model (or the fallback) decides what it does. */
export interface Pending {
  readonly candidate: Candidate;
  readonly vector: Float32Array;
  readonly neighbours: readonly { readonly fact: Fact; readonly score: number }[];
}

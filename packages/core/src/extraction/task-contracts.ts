import { z } from 'zod';
import { CommandAction, type FactCategory } from '../model/enums.js';

const values = <T extends Record<string, string>>(o: T) => Object.values(o) as [T[keyof T], ...T[keyof T][]];

/** One new candidate fact and the existing facts it collides with. */
export interface ReconcileCollision {
  /** 0-based index of the candidate, echoed back in decisions. */
  readonly candidateIndex: number;
  readonly subjectName: string;
  readonly text: string;
  readonly category: FactCategory;
  /** Existing facts, each with a short local id ("0", "1", …) unique across the whole request. */
  readonly existing: readonly {
    readonly id: string;
    readonly text: string;
    readonly category: FactCategory;
  }[];
}

export interface ReconcileInput {
  readonly collisions: readonly ReconcileCollision[];
}

export const ReconcileKind = {
  ADD: 'ADD',
  UPDATE: 'UPDATE',
  INVALIDATE: 'INVALIDATE',
  NOOP: 'NOOP',
} as const;
export type ReconcileKind = (typeof ReconcileKind)[keyof typeof ReconcileKind];

export const reconcileDecisionSchema = z
  .object({
    candidateIndex: z.number().int().min(0),
    kind: z.enum(values(ReconcileKind)),
    /** Local id of the existing fact an UPDATE/INVALIDATE/NOOP refers to; null for ADD. */
    targetId: z.string().max(16).nullable(),
    /** For UPDATE: the merged text to store (third person). Otherwise null. */
    text: z.string().max(2000).nullable(),
    reason: z.string().max(300),
  })
  .strict();

export const reconcileOutputSchema = z
  .object({ decisions: z.array(reconcileDecisionSchema).max(200) })
  .strict();
export type ReconcileDecision = z.output<typeof reconcileDecisionSchema>;
export type ReconcileOutput = z.output<typeof reconcileOutputSchema>;

/** Input of a profile digest: the subject's strongest facts. Output is plain text (≤ maxWords). */
export interface SummarizeInput {
  readonly subjectName: string;
  readonly facts: readonly string[];
  readonly maxWords: number;
}

export interface ClassifyCommandInput {
  readonly text: string;
}

export const commandOutputSchema = z
  .object({
    action: z.enum(values(CommandAction)),
    targetText: z.string().max(2000),
    confidence: z.number().min(0).max(1),
  })
  .strict();
export type CommandClassification = z.output<typeof commandOutputSchema>;

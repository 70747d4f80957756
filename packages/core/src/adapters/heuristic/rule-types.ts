import type { ProposedEntity } from '../../extraction/extraction-contract.js';
import type { FactCategory } from '../../model/enums.js';

/** One clause, normalised ("i am", "do not"), with leading fillers and hedges removed. */
export interface Clause {
  /** Case-preserved text the rules match (first person: "i love rust"). */
  readonly text: string;
  /** A hedge was removed ("i think", "maybe", "kinda"): lower the confidence. */
  readonly hedged: boolean;
  /** The clause pins itself to now ("rn", "today"). */
  readonly transient: boolean;
}

export interface RuleContext {
  /** Display name of the person the clause is about. */
  readonly name: string;
  readonly batchDate: string;
}

/** What a rule proposes; the extractor adds subject, speaker, indexes and final checks. */
export interface Draft {
  /** Alternative phrasings, preferred first; the first that is not a near copy is used. */
  readonly texts: readonly string[];
  readonly category: FactCategory;
  readonly confidence: number;
  readonly entities: readonly ProposedEntity[];
  /** Relation verb from the subject to the first entity, when the fact is an edge. */
  readonly verb: string | null;
  /** The verb relates the subject to every entity, not only the first (lists). */
  readonly relateAll?: boolean;
}

export interface Rule {
  readonly id: string;
  /** Allowed on a transient clause (birthdays, upcoming moves, weddings). */
  readonly temporalOk?: boolean;
  match(clause: Clause, ctx: RuleContext): Draft | null;
}

/** Helper: a draft with one entity and relation verb. */
export function draft(
  texts: readonly string[],
  category: FactCategory,
  confidence: number,
  entity: ProposedEntity | null = null,
  verb: string | null = null,
): Draft {
  return {
    texts,
    category,
    confidence,
    entities: entity === null ? [] : [entity],
    verb: entity === null ? null : verb,
  };
}

import type { BudgetStep } from '../model/enums.js';
import type { Fact } from '../model/fact.js';
import type { Logger } from '../ports/logger.js';

export interface BatchCompleted {
  readonly guildId: string;
  /** The first (usually only) batch key of the unit: an author id, or `__server__`. */
  readonly subjectKey: string;
  /** Every batch key whose messages this unit processed (one extraction call may serve several). */
  readonly subjectKeys: readonly string[];
  readonly messages: number;
  readonly adds: number;
  readonly reinforces: number;
  readonly supersessions: number;
  readonly invalidations: number;
  readonly rejected: number;
  readonly llmCalls: number;
  /** Why nothing was extracted (noise, budget, empty_output, gated, …), or null. */
  readonly skipped: string | null;
}

export interface FactCommitted {
  readonly guildId: string;
  readonly fact: Fact;
  readonly reinforcement: boolean;
}

export interface FactSuperseded {
  readonly guildId: string;
  /** Subject of the retired fact (null = a server fact). */
  readonly subjectId: string | null;
  readonly oldFactId: string;
  /** The replacing fact, or null when the old fact was only invalidated or forgotten. */
  readonly newFactId: string | null;
  readonly reason: string;
}

export interface ExtractionFailed {
  readonly guildId: string;
  readonly subjectKey: string;
  readonly attempt: number;
  readonly deadLettered: boolean;
  readonly errorCode: string;
}

export interface BudgetWarning {
  readonly guildId: string;
  readonly step: BudgetStep;
  /** Highest used fraction of the daily or monthly ceiling. */
  readonly usedFraction: number;
}

export interface ComponentDegraded {
  readonly component: string;
  readonly detail: string;
}

export interface MemoryEvents {
  BatchCompleted: BatchCompleted;
  FactCommitted: FactCommitted;
  FactSuperseded: FactSuperseded;
  ExtractionFailed: ExtractionFailed;
  BudgetWarning: BudgetWarning;
  ComponentDegraded: ComponentDegraded;
}

export type MemoryEventType = keyof MemoryEvents;

/** Typed in-process events. Handlers run after the emitting code, and their errors never propagate. */
export class EventBus {
  readonly #handlers = new Map<MemoryEventType, Set<(payload: never) => void>>();
  readonly #logger: Logger | undefined;

  constructor(logger?: Logger) {
    this.#logger = logger;
  }

  on<K extends MemoryEventType>(type: K, handler: (payload: MemoryEvents[K]) => void): () => void {
    let set = this.#handlers.get(type);
    if (!set) {
      set = new Set();
      this.#handlers.set(type, set);
    }
    set.add(handler as (payload: never) => void);
    return () => {
      set.delete(handler as (payload: never) => void);
    };
  }

  emit<K extends MemoryEventType>(type: K, payload: MemoryEvents[K]): void {
    const set = this.#handlers.get(type);
    if (!set || set.size === 0) return;
    for (const handler of set) {
      queueMicrotask(() => {
        try {
          const result = (handler as (p: MemoryEvents[K]) => unknown)(payload);
          if (result instanceof Promise) result.catch((error: unknown) => this.#fail(type, error));
        } catch (error) {
          this.#fail(type, error);
        }
      });
    }
  }

  #fail(type: MemoryEventType, error: unknown): void {
    this.#logger?.({ level: 'warn', event: 'events.handler_failed', data: { type }, error });
  }
}

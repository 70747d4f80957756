import { ErrorCode, MemoryError } from '../../errors/index.js';
import type { Fact, FactHistoryEntry } from '../../model/fact.js';
import type { Alias, Digest, Entity, Link, Relation } from '../../model/graph.js';
import type { StoredMessage } from '../../model/message.js';
import type { Reaction } from '../../model/reaction.js';
import type { ActiveMode } from '../../ports/active-mode-store.js';
import type { Erasure } from '../../ports/erasure-log.js';
import type { VectorItem } from '../../ports/vector-index.js';
import { ScopeGate } from '../shared/async-scope.js';

interface UndoScope {
  readonly undo: (() => void)[];
}

/** A map whose writes inside a transaction scope are recorded for rollback. */
export class UndoMap<K, V> {
  readonly #map = new Map<K, V>();
  readonly #gate: ScopeGate<UndoScope>;

  constructor(gate: ScopeGate<UndoScope>) {
    this.#gate = gate;
  }

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  set(key: K, value: V): void {
    this.#record(key);
    this.#map.set(key, value);
  }

  delete(key: K): boolean {
    if (!this.#map.has(key)) return false;
    this.#record(key);
    return this.#map.delete(key);
  }

  values(): IterableIterator<V> {
    return this.#map.values();
  }

  entries(): IterableIterator<[K, V]> {
    return this.#map.entries();
  }

  get size(): number {
    return this.#map.size;
  }

  #record(key: K): void {
    const scope = this.#gate.current();
    if (!scope) return;
    const had = this.#map.has(key);
    const previous = this.#map.get(key);
    scope.undo.push(() => {
      if (had) this.#map.set(key, previous as V);
      else this.#map.delete(key);
    });
  }
}

export interface StoredRelation extends Relation {
  readonly rowId: number;
}

export interface Lease {
  readonly owner: string;
  readonly until: number;
}

/** Every table of the in-memory backend. Keys join guild and id with a NUL separator. */
export class MemoryState {
  readonly gate = new ScopeGate<UndoScope>();
  readonly facts = new UndoMap<string, Fact>(this.gate);
  readonly history = new UndoMap<string, readonly FactHistoryEntry[]>(this.gate);
  readonly aliases = new UndoMap<string, Alias>(this.gate);
  readonly links = new UndoMap<string, Link>(this.gate);
  readonly relations = new UndoMap<number, StoredRelation>(this.gate);
  readonly entities = new UndoMap<string, Entity>(this.gate);
  readonly optOuts = new UndoMap<string, Date>(this.gate);
  readonly digests = new UndoMap<string, Digest>(this.gate);
  readonly cursors = new UndoMap<string, string>(this.gate);
  readonly budgets = new UndoMap<string, number>(this.gate);
  readonly meta = new UndoMap<string, string>(this.gate);
  readonly messages = new UndoMap<string, StoredMessage>(this.gate);
  readonly leases = new UndoMap<string, Lease>(this.gate);
  readonly vectors = new UndoMap<string, VectorItem>(this.gate);
  readonly claims = new UndoMap<string, Lease>(this.gate);
  readonly modes = new UndoMap<string, ActiveMode>(this.gate);
  /** Reactions of each message, by (guild, message). */
  readonly reactions = new UndoMap<string, readonly Reaction[]>(this.gate);
  /** Erasure log rows by (guild, generation) and each guild's generation counter. */
  readonly erasures = new UndoMap<string, Erasure & { readonly guildId: string }>(this.gate);
  readonly erasureGenerations = new UndoMap<string, number>(this.gate);
  nextRelationRow = 1;
  vectorDims: number | null = null;
  closed = false;

  /** Runs fn atomically: on error every write it made is undone. */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.gate.run(() => ({ undo: [] as (() => void)[] }), fn, {
      begin: () => {},
      commit: () => {},
      rollback: (scope) => {
        for (let i = scope.undo.length - 1; i >= 0; i--) scope.undo[i]?.();
      },
    });
  }
}

/** Waits for any foreign transaction scope and rejects use after close. */
export async function enter(state: MemoryState): Promise<void> {
  const wait = state.gate.wait();
  if (wait) await wait;
  if (state.closed) throw new MemoryError(ErrorCode.CLOSED, 'the in-memory store is closed');
}

export const key = (...parts: readonly (string | null)[]): string =>
  parts.map((p) => p ?? '\u0001').join('\u0000');

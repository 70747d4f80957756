import { resolve } from 'node:path';
import { ScopeGate } from '@permafrost/core/store';

/** State of one `transaction()` scope: work to run once its COMMIT has succeeded. */
export interface TxScope {
  readonly afterCommit: (() => void)[];
}

interface Entry {
  readonly gate: ScopeGate<TxScope>;
  users: number;
}

/**
 * One ScopeGate per database file in this process. Store objects on the same file have separate
 * connections; sharing the gate makes a call on one wait (asynchronously) for a transaction open
 * on another, instead of blocking the event loop in SQLite's busy handler while that transaction
 * cannot make progress. `:memory:` databases are private, so they get a private gate.
 */
const gates = new Map<string, Entry>();

export function acquireGate(path: string): { gate: ScopeGate<TxScope>; release: () => void } {
  if (path === ':memory:' || path === '') return { gate: new ScopeGate<TxScope>(), release: () => {} };
  const key = resolve(path);
  let entry = gates.get(key);
  if (!entry) {
    entry = { gate: new ScopeGate<TxScope>(), users: 0 };
    gates.set(key, entry);
  }
  entry.users++;
  let released = false;
  const held = entry;
  return {
    gate: held.gate,
    release: () => {
      if (released) return;
      released = true;
      if (--held.users === 0 && gates.get(key) === held) gates.delete(key);
    },
  };
}

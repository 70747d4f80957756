/**
 * A document that is changed in place (through DocGuard, doc-guard.ts): besides its string `_id`
 * it carries `ep`, the version stamp the guard checks (fresh for each version).
 */
export interface GuardedDoc {
  _id: string;
  ep: string;
}

/** Returned by a change function to delete the document. */
export const DELETE: unique symbol = Symbol('delete');
/** A change: the next full document, DELETE, or null for "leave it as it is". */
export type Change<D> = D | typeof DELETE | null;

export interface Outcome<D> {
  readonly before: D | null;
  readonly after: D | null;
  readonly changed: boolean;
}

export interface GuardOptions<D> {
  /** Runs while the document's version is held, just before the change is written. */
  readonly beforeWrite?: (before: D, after: D | typeof DELETE) => Promise<void>;
  /**
   * Starts from the version this store itself last wrote (within a few minutes) instead of reading
   * the document: for documents that mostly one process changes, such as a queue key's bucket
   * (its lease holder). A version another process replaced meanwhile costs a retry from a fresh
   * read, never a wrong write; a "nothing to change" decided on it is checked on a fresh read.
   */
  readonly reuseWritten?: boolean;
  /**
   * Versions the caller read moments ago and believes current (by `_id`; null: read as absent):
   * used instead of a read, with the same guarantees as `reuseWritten` (a stale one costs a retry
   * from a fresh read; an insert over a document that appeared meanwhile is lost and retried).
   */
  readonly known?: ReadonlyMap<string, D | null>;
  /**
   * `known` was read within this operation: a "nothing to change" decided on it is final, not
   * checked on a fresh read (a write decided on it still fails, and is retried, if it is stale).
   */
  readonly knownIsFresh?: boolean;
}

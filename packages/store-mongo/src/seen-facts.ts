import type { FactDoc } from './mongo-memory-docs.js';
import { WrittenVersions } from './written-versions.js';

/** How long, and how many, fact documents read are kept as the likely current version. */
const SEEN_MS = 120_000;
const MAX_SEEN = 2_000;

/**
 * Fact documents this store read or wrote moments ago, by `_id`. A versioned update of one of
 * them (a reinforcement of a fact that reconcile has just read) starts from it instead of reading
 * the document again (`GuardOptions.known`); a version another process replaced meanwhile costs
 * a retry from a fresh read, never a wrong write.
 */
export class SeenFacts {
  readonly #docs = new WrittenVersions({ ttlMs: SEEN_MS, max: MAX_SEEN });

  /** Documents just read (outside a transaction: inside one the guard reads under its session). */
  note(docs: Iterable<FactDoc>): void {
    for (const d of docs) this.#docs.remember('facts', d);
  }

  /**
   * The document at `key` as the guard's `known` map: if it was seen at `version`, or, for an
   * update that expects no version (ending a fact reconcile has just read), as last seen.
   */
  known(key: string, version: number | undefined): ReadonlyMap<string, FactDoc> | undefined {
    const doc = this.#docs.get<FactDoc>('facts', [key]).get(key);
    return doc && (version === undefined || doc.version === version) ? new Map([[key, doc]]) : undefined;
  }

  /** After a write: the stored document, or null when it is gone or unknown. */
  wrote(key: string, doc: FactDoc | null): void {
    if (doc) this.#docs.remember('facts', doc);
    else this.#docs.forget('facts', key);
  }
}

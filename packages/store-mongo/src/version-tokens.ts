import type { Logger } from '@permafrost/core';
import type { Collection } from 'mongodb';
import type { BackgroundWrites } from './background-writes.js';
import { insertTolerant } from './insert-tolerant.js';
import type { RawDoc } from './raw-doc.js';

/** A version token: whoever inserts it may change the document version it names. */
export interface TokenDoc {
  _id: string;
  at: Date;
}

const MAX_LEVELS = 8;

/**
 * The version tokens of guarded documents (see DocGuard): inserting `<collection>|<_id>|<ep>|1`
 * is the right to change that version of the document. A token older than the TTL was left by a
 * crashed writer: contenders escalate to `|2`, `|3`, … (again by insert, so exactly one wins).
 */
export class VersionTokens {
  readonly #host: { readonly logger: Logger | undefined };
  readonly #tokens: Collection<TokenDoc>;
  readonly #ttlMs: number;
  readonly #background: BackgroundWrites;

  /** `background`: where `releaseSoon` tracks its deletes (shared by a store's guards). */
  constructor(
    host: { readonly logger: Logger | undefined },
    tokens: Collection<TokenDoc>,
    ttlMs: number,
    background: BackgroundWrites,
  ) {
    this.#host = host;
    this.#tokens = tokens;
    this.#ttlMs = ttlMs;
    this.#background = background;
  }

  /** Inserts the version tokens; returns, per won document, every token id to delete afterwards. */
  async acquire(
    collName: string,
    items: readonly { id: string; ep: string }[],
  ): Promise<Map<string, string[]>> {
    const tokenId = (it: { id: string; ep: string }, level: number) =>
      `${collName}|${it.id}|${it.ep}|${level}`;
    const now = new Date();
    const lost = await insertTolerant(
      this.#tokens as unknown as Collection<RawDoc>,
      items.map((it) => ({ _id: tokenId(it, 1), at: now })),
    );
    const held = new Map<string, string[]>();
    for (const [i, it] of items.entries()) {
      if (!lost.has(i)) {
        held.set(it.id, [tokenId(it, 1)]);
        continue;
      }
      for (let level = 1; level < MAX_LEVELS; level++) {
        const existing = await this.#tokens.findOne({ _id: tokenId(it, level) });
        if (!existing || Date.now() - existing.at.getTime() < this.#ttlMs) break;
        this.#host.logger?.({
          level: 'warn',
          event: 'store.mongo.stale_version_token',
          data: { collection: collName, level },
        });
        const up = await insertTolerant(this.#tokens as unknown as Collection<RawDoc>, [
          { _id: tokenId(it, level + 1), at: new Date() },
        ]);
        if (up.size === 0) {
          held.set(
            it.id,
            Array.from({ length: level + 1 }, (_, l) => tokenId(it, l + 1)),
          );
          break;
        }
      }
    }
    return held;
  }

  /** The tokens' collection. */
  get collection(): Collection<TokenDoc> {
    return this.#tokens;
  }

  /** Deletes held tokens (after the write, won or lost). */
  async release(tokenIds: string[]): Promise<void> {
    if (tokenIds.length > 0)
      await this.#tokens.deleteMany(
        tokenIds.length === 1 ? { _id: tokenIds[0] as string } : { _id: { $in: tokenIds } },
      );
  }

  /**
   * Deletes held tokens without making the caller wait for the answer: the delete is sent now, as
   * it would be if awaited, and nothing the caller does next depends on it (a token of a version
   * that was written names a dead version; a contender for a token still present backs off and
   * retries). `then` runs once the delete was answered. A failed delete is logged; the token then
   * expires like a crashed writer's and is swept at setup.
   */
  releaseSoon(tokenIds: string[], then?: () => void): void {
    this.#background.add(
      this.release(tokenIds),
      (error) => this.#host.logger?.({ level: 'warn', event: 'store.mongo.token_release_failed', error }),
      then,
    );
  }

  /** Deletes tokens older than `ageMs` (left by crashed writers, or naming dead versions). */
  async sweep(ageMs: number): Promise<number> {
    const r = await this.#tokens.deleteMany({ at: { $lt: new Date(Date.now() - ageMs) } });
    return r.deletedCount;
  }
}

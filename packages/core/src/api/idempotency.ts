import { createHash } from 'node:crypto';
import { ErrorCode, MemoryError } from '../errors/index.js';
import type { Fact } from '../model/fact.js';
import type { MemoryStore } from '../ports/memory-store.js';

/**
 * Idempotent manual commands: a key (an interaction id, a request id) is recorded with a hash of
 * the input and the fact it produced, in the store (a guild cursor), so a retried command —
 * even after a restart — returns that fact instead of writing again, and the same key with a
 * different input is refused.
 */
const CURSOR_PREFIX = 'idempotency:';

interface IdempotencyRecord {
  readonly hash: string;
  readonly factId: string;
}

export function inputHash(input: Readonly<Record<string, unknown>>): string {
  const { idempotencyKey: _key, ...rest } = input;
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex');
}

export class IdempotentCommand {
  readonly #store: MemoryStore;
  readonly #guildId: string;
  readonly #key: string;
  readonly #hash: string;

  constructor(store: MemoryStore, guildId: string, key: string, hash: string) {
    this.#store = store;
    this.#guildId = guildId;
    this.#key = key;
    this.#hash = hash;
  }

  async #record(): Promise<IdempotencyRecord | null> {
    const raw = await this.#store.cursors.getCursor(this.#guildId, CURSOR_PREFIX + this.#key);
    if (raw === null) return null;
    try {
      const parsed = JSON.parse(raw) as Partial<IdempotencyRecord>;
      return typeof parsed.hash === 'string' && typeof parsed.factId === 'string'
        ? { hash: parsed.hash, factId: parsed.factId }
        : null;
    } catch {
      return null;
    }
  }

  /**
   * The fact an earlier call with this key produced (null when the key is new, or its fact no
   * longer exists). The same key with another input is IDEMPOTENCY_KEY_REUSED.
   */
  async replay(): Promise<Fact | null> {
    const record = await this.#record();
    if (!record) return null;
    if (record.hash !== this.#hash)
      throw new MemoryError(
        ErrorCode.IDEMPOTENCY_KEY_REUSED,
        'this idempotency key was already used with a different input',
      );
    const [fact] = await this.#store.facts.get(this.#guildId, [record.factId]);
    return fact ?? null;
  }

  /**
   * Runs the write inside a transaction that first checks the key is still free (a concurrent
   * call may have taken it) and records it last. A lost race returns the winner's fact.
   */
  async run(write: () => Promise<Fact>): Promise<{ fact: Fact; replayed: boolean }> {
    // Thrown inside the transaction when a concurrent call recorded the key first (a MemoryError,
    // so store wrappers pass it through unchanged and it is recognised by identity).
    const taken = new MemoryError(ErrorCode.CONFLICT, 'the idempotency key was taken concurrently');
    try {
      const fact = await this.#store.transaction(async () => {
        if (await this.replay()) throw taken;
        const written = await write();
        const record: IdempotencyRecord = { hash: this.#hash, factId: written.id };
        await this.#store.cursors.setCursor(this.#guildId, CURSOR_PREFIX + this.#key, JSON.stringify(record));
        return written;
      });
      return { fact, replayed: false };
    } catch (error) {
      if (error !== taken) throw error;
      const fact = await this.replay();
      if (!fact)
        throw new MemoryError(
          ErrorCode.CONFLICT,
          'a concurrent call with this idempotency key failed; retry',
        );
      return { fact, replayed: true };
    }
  }
}

import { createMemory, ErrorCode, type Memory, MemoryError } from '@permafrost/core';
import { FixedClock, sequentialIds } from '@permafrost/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { closeStores, type StoreInstance, selectedStores } from './support/stores.js';

afterAll(closeStores);

/**
 * `facts.remember({ …, idempotencyKey })` (issue #23 §6) on every selected store: the same key and
 * input return the same fact (no second write, no reinforcement), even from a new process on the
 * same SQLite file; the key with another input is refused with IDEMPOTENCY_KEY_REUSED; concurrent
 * calls with one key write one fact.
 */

const G = '500000000000000001';
const ALICE = '110000000000000001';

function open(instance: StoreInstance, clock = new FixedClock('2026-09-01T12:00:00.000Z')): Memory {
  return createMemory(
    { storage: instance.storage, workers: { enabled: false }, llm: null },
    { clock, idGen: sequentialIds(), ...instance.overrides },
  );
}

const base = {
  guildId: G,
  subjectId: ALICE,
  text: 'Alice is allergic to peanuts',
  category: 'personal',
} as const;

for (const store of selectedStores()) {
  describe(`idempotent facts.remember on ${store.name}`, () => {
    it('returns the same fact for the same key and input, and refuses the key with other input', async () => {
      const instance = store.open();
      const memory = open(instance);
      const first = await memory.facts.remember({ ...base, idempotencyKey: 'interaction-1' });
      const again = await memory.facts.remember({ ...base, idempotencyKey: 'interaction-1' });
      expect(again.id).toBe(first.id);
      expect(again.occurrences).toBe(first.occurrences);
      expect(await memory.facts.history({ guildId: G, factId: first.id })).toHaveLength(1);

      for (const changed of [
        { ...base, text: 'Alice is allergic to shellfish' },
        { ...base, category: 'preferences' as const },
        { ...base, subjectId: null },
      ]) {
        const error = await memory.facts
          .remember({ ...changed, idempotencyKey: 'interaction-1' })
          .catch((e: unknown) => e);
        expect(MemoryError.is(error, ErrorCode.IDEMPOTENCY_KEY_REUSED)).toBe(true);
      }
      const facts = await memory.facts.getAll({ guildId: G, subjectId: ALICE });
      expect(facts.map((f) => f.text)).toEqual(['Alice is allergic to peanuts']);

      // Without a key the same text reinforces, as before; a new key is a new request.
      const reinforced = await memory.facts.remember(base);
      expect(reinforced.id).toBe(first.id);
      expect(reinforced.occurrences).toBe(first.occurrences + 1);
      const other = await memory.facts.remember({
        ...base,
        text: 'Alice plays the oboe',
        idempotencyKey: 'interaction-2',
      });
      expect(other.id).not.toBe(first.id);
      // Keys belong to a guild.
      const elsewhere = await memory.facts.remember({
        ...base,
        guildId: '500000000000000002',
        idempotencyKey: 'interaction-1',
      });
      expect(elsewhere.guildId).toBe('500000000000000002');
      await memory.close();

      if (instance.path) {
        // A new process on the same file: the key is still known.
        const reopened = open(instance);
        const replayed = await reopened.facts.remember({ ...base, idempotencyKey: 'interaction-1' });
        expect(replayed.id).toBe(first.id);
        const error = await reopened.facts
          .remember({ ...base, text: 'Alice is allergic to shellfish', idempotencyKey: 'interaction-1' })
          .catch((e: unknown) => e);
        expect(MemoryError.is(error, ErrorCode.IDEMPOTENCY_KEY_REUSED)).toBe(true);
        await reopened.close();
      }
      await instance.cleanup();
    });

    it('concurrent calls with one key write one fact', async () => {
      const instance = store.open();
      const memory = open(instance);
      const results = await Promise.all(
        Array.from({ length: 5 }, () => memory.facts.remember({ ...base, idempotencyKey: 'retry-storm' })),
      );
      expect(new Set(results.map((f) => f.id)).size).toBe(1);
      const [fact] = await memory.facts.getAll({ guildId: G, subjectId: ALICE });
      expect(fact?.occurrences).toBe(1);
      await memory.close();
      await instance.cleanup();
    });

    it('rejects a malformed key with SCHEMA_INVALID and stores nothing', async () => {
      const instance = store.open();
      const memory = open(instance);
      for (const idempotencyKey of ['', 'k'.repeat(129), 42]) {
        const error = await memory.facts
          .remember({ ...base, idempotencyKey } as never)
          .catch((e: unknown) => e);
        expect(MemoryError.is(error, ErrorCode.SCHEMA_INVALID)).toBe(true);
      }
      expect(await memory.facts.getAll({ guildId: G, subjectId: ALICE })).toEqual([]);
      await memory.close();
      await instance.cleanup();
    });
  });
}

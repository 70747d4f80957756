import { z } from 'zod';
import type { CursorStore } from '../ports/cursor-store.js';
import { idField as id, parseInput } from '../validation/index.js';

/**
 * Keys of `memory.cursors` live under their own prefix in the store's cursor table, so an
 * integration can never read or overwrite core's own positions (maintenance, community windows,
 * idempotency records).
 */
const PREFIX = 'app:';

/** Longest cursor value: positions are small (an id, a timestamp, a short JSON record). */
export const MAX_CURSOR_VALUE_CHARS = 4_096;

const keyField = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._:/-]+$/, { message: 'letters, digits and . _ : / - only' });
const getSchema = z.object({ guildId: id, key: keyField }).strict();
const setSchema = z
  .object({ guildId: id, key: keyField, value: z.string().min(1).max(MAX_CURSOR_VALUE_CHARS) })
  .strict();

/**
 * `memory.cursors`: where an integration keeps the position of its own long-running work in a
 * guild (for example `@permafrost/discord`'s history import: how far back each channel was read),
 * so the work resumes where it stopped, in any process sharing the store. Not a general key/value
 * store: values are small and are not part of exports.
 */
export function createCursorsApi(deps: { readonly cursors: CursorStore }) {
  return {
    /** The value stored under `key` for the guild, or null. */
    async get(input: { guildId: string; key: string }): Promise<string | null> {
      const v = parseInput(getSchema, input, 'cursors.get');
      return deps.cursors.getCursor(v.guildId, PREFIX + v.key);
    },
    /** Stores `value` under `key` for the guild (replacing the previous one). */
    async set(input: { guildId: string; key: string; value: string }): Promise<void> {
      const v = parseInput(setSchema, input, 'cursors.set');
      await deps.cursors.setCursor(v.guildId, PREFIX + v.key, v.value);
    },
  };
}

/** `memory.cursors`: positions of an integration's own work, per guild. */
export type CursorsApi = ReturnType<typeof createCursorsApi>;

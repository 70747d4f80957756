import { z } from 'zod';
import { SERVER_KEY } from '../model/reserved-ids.js';

/** Longest id accepted anywhere (platform ids, message ids, session ids, fact ids). */
export const MAX_ID_CHARS = 128;
/** Longest free text a public method takes (a reply, a session entry, a query, a command). */
export const MAX_TEXT_CHARS = 100_000;
/** Most ids in one list argument. */
export const MAX_IDS = 1_000;

/** A lone UTF-16 surrogate: not text any store can hold as it is (BSON and UTF-8 need well-formed). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Ids the library uses for itself; a member, author or subject id may never take one. */
export const RESERVED_IDS: ReadonlySet<string> = new Set([SERVER_KEY]);

/** A non-empty, bounded, well-formed id. */
export const idField = z
  .string()
  .min(1)
  .max(MAX_ID_CHARS)
  .refine((s) => !LONE_SURROGATE.test(s), { message: 'ids must be well-formed text' });

/** A member id (author, subject, speaker, requester): an id that is not reserved. */
export const userIdField = idField.refine((s) => !RESERVED_IDS.has(s), {
  message: 'this id is reserved by the library',
});

/** Bounded free text. */
export const textField = (max: number = MAX_TEXT_CHARS) => z.string().max(max);

/** A positive integer count bounded by `max`. */
export const countField = (max: number) => z.number().int().min(1).max(max);

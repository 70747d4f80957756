import { randomBytes } from 'node:crypto';
import { ErrorCode, MemoryError } from '@permafrost/core';

/**
 * Builds a document `_id` from natural-key parts. Each part is length-prefixed (`<len>:<text>|`,
 * null as `~|`), so the encoding is injective whatever the parts contain: ids with `|`, `:`, `$`,
 * `.` or `__proto__` stay data and never collide. Lookups by `_id` are the only indexed reads on
 * FerretDB, so every hot document is addressed this way.
 */
/**
 * Scope key of server-scope documents (`sk`, next to `subjectId`): a string, so that "the server's
 * facts" is an equality FerretDB can push down (it does not push `subjectId: null`).
 */
export const SERVER_SCOPE = '\u0000';

export function docKey(...parts: readonly (string | null)[]): string {
  let out = '';
  for (const part of parts) out += part === null ? '~|' : `${part.length}:${part}|`;
  return out;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Rejects anything but a string (ids from callers are never spread into filters). */
export function requireString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new MemoryError(ErrorCode.SCHEMA_INVALID, `${what} must be a string`);
  return value;
}

/** A string id that survives UTF-8 encoding unchanged (no lone surrogates). */
export function requireId(value: unknown, what: string): string {
  const s = requireString(value, what);
  if (LONE_SURROGATE.test(s))
    throw new MemoryError(ErrorCode.SCHEMA_INVALID, `${what} is not well-formed text`);
  return s;
}

export function requireIds(values: readonly unknown[], what: string): string[] {
  if (!Array.isArray(values)) throw new MemoryError(ErrorCode.SCHEMA_INVALID, `${what} must be an array`);
  return values.map((v) => requireString(v, what));
}

/** Rejects NaN and ±Infinity before they reach the server (FerretDB drops the connection on NaN). */
export function finite(value: number, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new MemoryError(ErrorCode.SCHEMA_INVALID, `${what} must be a finite number`);
  return value;
}

export function validDate(value: Date, what: string): Date {
  if (!(value instanceof Date) || Number.isNaN(value.getTime()))
    throw new MemoryError(ErrorCode.SCHEMA_INVALID, `${what} must be a valid date`);
  return value;
}

export function nullableDate(value: Date | null, what: string): Date | null {
  return value === null ? null : validDate(value, what);
}

/**
 * The smallest string greater than every string that starts with `prefix` (in code point order,
 * which is the byte order MongoDB and FerretDB compare strings in), or null when unbounded.
 * Prefix lookups become `{$gte: prefix, $lt: bound}`: no regex, so the prefix is always data.
 */
export function prefixUpperBound(prefix: string): string | null {
  const points = Array.from(prefix);
  while (points.length > 0) {
    const last = points.pop() as string;
    let cp = (last.codePointAt(0) as number) + 1;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xe000;
    if (cp <= 0x10ffff) return points.join('') + String.fromCodePoint(cp);
  }
  return null;
}

const PROCESS_NONCE = randomBytes(6).toString('base64url');
let epochCounter = 0;

/** A value never issued before by any process: the version stamp of a guarded document. */
export function newEpoch(): string {
  epochCounter = (epochCounter + 1) % Number.MAX_SAFE_INTEGER;
  return `${PROCESS_NONCE}.${epochCounter.toString(36)}`;
}

export function randomToken(): string {
  return randomBytes(9).toString('base64url');
}

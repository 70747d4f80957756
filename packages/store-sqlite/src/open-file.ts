import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ErrorCode, MemoryError } from '@permafrost/core';
import { missingDriverHint } from './driver-missing.js';
import { toStoreError } from './errors.js';

/** `:memory:`, the empty path (a private temporary database) and SQLite `file::memory:` URIs. */
export const isInMemoryPath = (path: string): boolean =>
  path === '' || path === ':memory:' || path.startsWith('file::memory:');

/** `EACCES: permission denied` from a Node system error (code and text only: never content). */
function osError(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : 'error';
  const text = typeof e?.message === 'string' ? e.message.replace(/^[A-Z]+: /, '').split(',')[0] : '';
  return text ? `${code}: ${text}` : code;
}

/**
 * Creates the database file's folder when it is missing (like `mkdir -p`). A folder that cannot be
 * created is STORE_UNAVAILABLE naming the folder and the OS error.
 */
export function ensureParentFolder(path: string): void {
  if (isInMemoryPath(path) || path.startsWith('file:')) return;
  const folder = dirname(resolve(path));
  if (existsSync(folder)) return;
  try {
    mkdirSync(folder, { recursive: true });
  } catch (cause) {
    throw new MemoryError(
      ErrorCode.STORE_UNAVAILABLE,
      `cannot create the folder ${folder} for the SQLite database ${resolve(path)} (${osError(cause)})`,
      { cause },
    );
  }
}

/** Why the OS refuses the file (or its folder), when it does: `EACCES: permission denied`. */
function accessProblem(path: string): string | null {
  const target = existsSync(path) ? path : dirname(path);
  try {
    accessSync(target, constants.R_OK | constants.W_OK);
    return null;
  } catch (error) {
    return `${osError(error)} on ${target}`;
  }
}

/**
 * The error for a database that failed to open: the store error for the driver's code, its message
 * prefixed with the absolute path, the driver code and the OS reason (none of them user content).
 */
export function openError(path: string, error: unknown): MemoryError {
  if (MemoryError.is(error)) return error;
  const mapped = toStoreError(error);
  const absolute = resolve(path);
  const code = (error as { code?: unknown } | null)?.code;
  const reasons = [
    typeof code === 'string' ? code : null,
    missingDriverHint(error),
    accessProblem(absolute),
  ].filter(Boolean);
  const what = mapped.code === ErrorCode.STORE_UNAVAILABLE ? '' : `: ${mapped.message}`;
  return new MemoryError(
    mapped.code,
    `cannot open the SQLite database ${absolute}${what}${reasons.length > 0 ? ` (${reasons.join('; ')})` : ''}`,
    { cause: error },
  );
}

import { ErrorCode, MemoryError } from '@permafrost/core';

/** A driver error as better-sqlite3 throws it (`SqliteError` with an extended result code name). */
interface DriverError {
  readonly code?: unknown;
}

function driverCode(error: unknown): string {
  const code = (error as DriverError | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** True for a UNIQUE or PRIMARY KEY constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  const code = driverCode(error);
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Maps anything thrown by the driver onto a MemoryError with a fixed message (the driver's own
 * message may quote SQL or values, so it only travels as `cause`). MemoryErrors pass through.
 */
export function toStoreError(error: unknown): MemoryError {
  if (MemoryError.is(error)) return error;
  const code = driverCode(error);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
    return new MemoryError(ErrorCode.STORE_BUSY, 'the SQLite database is locked by another connection', {
      cause: error,
    });
  if (code.startsWith('SQLITE_READONLY'))
    return new MemoryError(ErrorCode.STORE_READ_ONLY, 'the SQLite database is read-only', { cause: error });
  if (code === 'SQLITE_FULL')
    return new MemoryError(ErrorCode.STORE_FULL, 'the SQLite database or disk is full', { cause: error });
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
    return new MemoryError(ErrorCode.STORE_CORRUPT, 'the SQLite database file is damaged', { cause: error });
  return new MemoryError(ErrorCode.STORE_UNAVAILABLE, 'the SQLite store failed', { cause: error });
}

export function closedError(): MemoryError {
  return new MemoryError(ErrorCode.CLOSED, 'the SQLite store is closed');
}

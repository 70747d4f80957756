/**
 * The closed table of error codes. Every `MemoryError` carries exactly one of these.
 * The description is the fixed, content-free part of the message.
 */
export const ErrorCode = {
  CONFIG_INVALID: 'CONFIG_INVALID',
  SCHEMA_INVALID: 'SCHEMA_INVALID',
  NOT_FOUND: 'NOT_FOUND',
  SUBJECT_NOT_ALLOWED: 'SUBJECT_NOT_ALLOWED',
  STORE_UNAVAILABLE: 'STORE_UNAVAILABLE',
  STORE_BUSY: 'STORE_BUSY',
  STORE_READ_ONLY: 'STORE_READ_ONLY',
  STORE_FULL: 'STORE_FULL',
  STORE_CORRUPT: 'STORE_CORRUPT',
  SCHEMA_VERSION_UNSUPPORTED: 'SCHEMA_VERSION_UNSUPPORTED',
  DIMENSION_MISMATCH: 'DIMENSION_MISMATCH',
  BACKEND_NOT_INSTALLED: 'BACKEND_NOT_INSTALLED',
  MODEL_NOT_FOUND: 'MODEL_NOT_FOUND',
  LLM_UNAVAILABLE: 'LLM_UNAVAILABLE',
  LLM_CAPABILITY: 'LLM_CAPABILITY',
  LLM_OUTPUT_INVALID: 'LLM_OUTPUT_INVALID',
  EMBEDDING_FAILED: 'EMBEDDING_FAILED',
  BUDGET_EXCEEDED: 'BUDGET_EXCEEDED',
  CLOSED: 'CLOSED',
  CONFLICT: 'CONFLICT',
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  BACKUP_UNSUPPORTED: 'BACKUP_UNSUPPORTED',
  INTERNAL: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Exit codes the CLI maps error codes onto (documented in docs/errors.md). */
export const errorHints: Readonly<Record<ErrorCode, string>> = {
  CONFIG_INVALID: 'Check the configuration object or URL; `issues` lists each problem with its path.',
  SCHEMA_INVALID: 'The input does not match the documented shape; `issues` lists each problem.',
  NOT_FOUND: 'The id does not exist in this guild.',
  SUBJECT_NOT_ALLOWED: 'The subject is a bot or has opted out of memory.',
  STORE_UNAVAILABLE: 'The storage backend could not be reached or failed; see `cause`.',
  STORE_BUSY: 'The database stayed locked by another process longer than the busy timeout.',
  STORE_READ_ONLY: 'The database file or directory is read-only.',
  STORE_FULL: 'The disk or database is full.',
  STORE_CORRUPT: 'The database file is damaged; restore from a backup or export.',
  SCHEMA_VERSION_UNSUPPORTED: 'The database was written by a newer Permafrost; upgrade the library.',
  DIMENSION_MISMATCH: 'The embedder dimensions differ from the stored vectors; run `permafrost reindex`.',
  BACKEND_NOT_INSTALLED: 'Install the package for this backend (for example @permafrost/store-sqlite).',
  MODEL_NOT_FOUND:
    'The local embedding model folder is missing files; run "npx permafrost-fetch-model" (shipped with @permafrost/embeddings-local).',
  LLM_UNAVAILABLE: 'The LLM endpoint failed after retries (timeouts, 429 or 5xx).',
  LLM_CAPABILITY: 'The LLM endpoint rejected the request shape; change the named model or knob.',
  LLM_OUTPUT_INVALID: 'The LLM returned output that did not validate, even after one repair turn.',
  EMBEDDING_FAILED: 'The embedder failed or returned vectors of the wrong shape.',
  BUDGET_EXCEEDED: 'The guild reached its configured token ceiling for the period.',
  CLOSED: 'The memory instance was closed.',
  CONFLICT: 'A concurrent writer changed the record; retry.',
  IDEMPOTENCY_KEY_REUSED:
    'The idempotency key was already used with a different input; use a new key for a new request.',
  BACKUP_UNSUPPORTED:
    'This store cannot back itself up; use the backend tool (for MongoDB: mongodump/mongorestore, see docs/stores.md).',
  INTERNAL: 'An unexpected internal error; see `cause`.',
};

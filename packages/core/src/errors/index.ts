export { ErrorCode, errorHints } from './error-codes.js';
export { MemoryError, type MemoryErrorOptions, type MemoryIssue, toMemoryError } from './memory-error.js';

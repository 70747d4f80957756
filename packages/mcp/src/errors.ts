import { ErrorCode as RpcCode } from '@modelcontextprotocol/sdk/types.js';
import { MemoryError } from '@permafrost/core';
import type { z } from 'zod';

/** Codes of this package, beside the `MemoryError` codes of core. */
export type McpOwnCode = 'GUILD_OUT_OF_SCOPE' | 'ADMIN_REQUIRED' | 'RESOURCE_NOT_FOUND' | 'TOOL_NOT_FOUND';

/** One problem of an input: where and what kind, never the value. */
export interface InputIssue {
  readonly path: readonly (string | number)[];
  readonly code: string;
}

/** A refusal of this package (scope, admin rule, unknown resource), turned into an MCP error. */
export class McpFailure extends Error {
  override readonly name = 'McpFailure';
  readonly code: McpOwnCode | 'SCHEMA_INVALID';
  readonly issues: readonly InputIssue[];

  constructor(code: McpFailure['code'], message: string, issues: readonly InputIssue[] = []) {
    super(message);
    this.code = code;
    this.issues = issues;
  }
}

const MAX_ISSUES = 20;

/**
 * A zod failure as SCHEMA_INVALID: the paths and issue codes only. Zod's messages are left out
 * because some quote the input (unknown keys, enum values), and errors never carry content.
 */
export function schemaFailure(where: string, error: z.ZodError): McpFailure {
  const issues = error.issues.slice(0, MAX_ISSUES).map((i) => ({
    path: i.path.map((p) => (typeof p === 'symbol' ? 'symbol' : p)),
    code: i.code,
  }));
  const paths = [...new Set(issues.map((i) => i.path.join('.') || '(root)'))].slice(0, 10);
  return new McpFailure('SCHEMA_INVALID', `invalid input for ${where} at: ${paths.join(', ')}`, issues);
}

const INVALID_PARAMS = new Set<string>([
  'SCHEMA_INVALID',
  'NOT_FOUND',
  'SUBJECT_NOT_ALLOWED',
  'IDEMPOTENCY_KEY_REUSED',
  'CONFLICT',
  'GUILD_OUT_OF_SCOPE',
  'RESOURCE_NOT_FOUND',
  'TOOL_NOT_FOUND',
]);

/** The outcome code of a failed call: a MemoryError or McpFailure code, else INTERNAL. */
export function outcomeOf(error: unknown): string {
  if (error instanceof McpFailure || MemoryError.is(error)) return error.code;
  return 'INTERNAL';
}

/**
 * A JSON-RPC error as the SDK sends it (numeric `code`, `message`, `data`). Not the SDK's McpError,
 * whose message gets a second "MCP error -32602:" prefix when the client wraps it again.
 */
export class RpcError extends Error {
  override readonly name = 'RpcError';
  readonly code: number;
  readonly data: { readonly code: string; readonly issues: readonly InputIssue[] };

  constructor(code: number, message: string, data: RpcError['data']) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/**
 * Any failure as an MCP (JSON-RPC) error: the message starts with the code (`SCHEMA_INVALID: …`)
 * and `data` holds `{ code, issues }` (paths and issue codes). MemoryError messages are content-free
 * by design; any other error is reported as INTERNAL without its message.
 */
export function toRpcError(error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  const code = outcomeOf(error);
  const message =
    error instanceof McpFailure || MemoryError.is(error) ? error.message : 'the request failed unexpectedly';
  const issues =
    error instanceof McpFailure
      ? error.issues
      : MemoryError.is(error)
        ? error.issues.slice(0, MAX_ISSUES).map((i) => ({ path: i.path, code: i.code }))
        : [];
  const rpc = INVALID_PARAMS.has(code)
    ? RpcCode.InvalidParams
    : code === 'ADMIN_REQUIRED'
      ? RpcCode.InvalidRequest
      : RpcCode.InternalError;
  return new RpcError(rpc, `${code}: ${message}`, { code, issues });
}

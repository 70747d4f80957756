import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { createMemory, type Memory, type MemoryConfigInput, type MemoryOverrides } from '@permafrost/core';
import { sqlitePath } from '@permafrost/core/internal';
import { createSqliteStore } from '@permafrost/store-sqlite';
import { UsageError } from './exit-codes.js';
import type { Output } from './output.js';

/** Flags every command accepts. */
export const COMMON_OPTIONS = {
  db: { type: 'string' },
  llm: { type: 'string' },
  embeddings: { type: 'string' },
  config: { type: 'string' },
  json: { type: 'boolean', default: false },
  verbose: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

export interface CommandContext {
  readonly out: Output;
  readonly values: Readonly<Record<string, string | boolean | string[] | undefined>>;
  readonly positionals: readonly string[];
  readonly cwd: string;
  /** Resolves when SIGINT/SIGTERM arrives (for long-running commands). */
  readonly interrupted: Promise<string>;
  /** The command only reads: its store opens read-only (SQLite) and a missing file is an error. */
  readonly readOnly?: boolean;
}

/** `--db` accepts a URL or a plain file path (→ sqlite); the default is `./permafrost.db`. */
export function storageUrl(db: string | undefined, cwd: string): string {
  const value = db ?? 'permafrost.db';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || value === 'memory') return value;
  const path = isAbsolute(value) ? value : resolve(cwd, value);
  return `sqlite://${path}`;
}

export function str(ctx: CommandContext, name: string): string | undefined {
  const v = ctx.values[name];
  return typeof v === 'string' ? v : undefined;
}

export function required(ctx: CommandContext, name: string): string {
  const v = str(ctx, name);
  if (v === undefined || v.length === 0) throw new UsageError(`--${name} is required`);
  return v;
}

/**
 * A memory for CLI use: workers off (commands drive work explicitly), config from flags and file,
 * guild-wide reads (`access.requireAudience: false`: the operator sees every channel).
 * For read-only commands a SQLite file opens read-only: missing is NOT_FOUND, nothing is created.
 */
export function openMemory(
  ctx: CommandContext,
  extra: MemoryConfigInput = {},
  overrides: MemoryOverrides = {},
): Memory {
  const fromFile = str(ctx, 'config')
    ? (JSON.parse(readFileSync(resolve(ctx.cwd, str(ctx, 'config') as string), 'utf8')) as MemoryConfigInput)
    : {};
  const llm = str(ctx, 'llm');
  const embeddings = str(ctx, 'embeddings');
  const config: MemoryConfigInput = {
    ...fromFile,
    storage: storageUrl(
      str(ctx, 'db') ?? (typeof fromFile.storage === 'string' ? fromFile.storage : undefined),
      ctx.cwd,
    ),
    ...(llm !== undefined ? { llm: llm === 'none' ? null : llm } : {}),
    ...(embeddings !== undefined ? { embeddings } : {}),
    workers: { ...(fromFile.workers ?? {}), enabled: false },
    // The CLI is the operator's view of the whole database: reads are guild-wide.
    access: { ...(fromFile.access ?? {}), requireAudience: false },
    ...extra,
  };
  const url = config.storage as string;
  const path = url.startsWith('sqlite://') ? sqlitePath(url) : null;
  if (ctx.readOnly && path !== null && path !== ':memory:' && !overrides.store)
    return createMemory(config, { ...overrides, store: createSqliteStore({ path, readOnly: true }) });
  return createMemory(config, overrides);
}

import { ErrorCode, type Logger, MemoryError } from '@permafrost/core';
import type { MongoClient, MongoClientOptions } from 'mongodb';
import type { VectorSearchMode } from './mongo-vector-index.js';
import type { QueryPlan } from './server-profile.js';

export interface MongoStoreOptions {
  /** `mongodb://…/<db>` or `mongodb+srv://…/<db>`; the database is the last path segment. */
  readonly url?: string;
  /** Overrides the database named in the URL (default `permafrost`). */
  readonly dbName?: string;
  /** An existing client (not closed by the store). Without it the store creates and owns one. */
  readonly client?: MongoClient;
  readonly clientOptions?: MongoClientOptions;
  readonly logger?: Logger;
  /** `auto` (default) uses `$vectorSearch` where the server has it; `in-process` never does. */
  readonly vectorSearch?: VectorSearchMode;
  /**
   * How reads of several documents are sent (see `QueryPlan`): `auto` (default) follows the server,
   * the `ferretdb` plan on FerretDB and the `mongodb` plan elsewhere. `mongodb` suits a FerretDB
   * whose backend indexes `$in` (FerretDB v2 on DocumentDB).
   */
  readonly queryPlan?: 'auto' | QueryPlan;
  /** How long a writer may hold a document version token before others treat it as crashed (30 s). */
  readonly versionTokenTtlMs?: number;
}

export const DEFAULT_DB = 'permafrost';
const INVALID_DB_CHARS = /[/\\. "$*<>:|?\0]/;

/** The database of a MongoDB URL: its last path segment, or `permafrost` when there is none. */
export function dbNameFromUrl(url: string): string {
  const match = /^mongodb(?:\+srv)?:\/\/(.*)$/i.exec(url);
  if (!match)
    throw new MemoryError(ErrorCode.CONFIG_INVALID, 'a MongoDB URL starts with mongodb:// or mongodb+srv://');
  const rest = (match[1] ?? '').split(/[?#]/)[0] ?? '';
  const afterAuth = rest.slice(rest.lastIndexOf('@') + 1);
  const slash = afterAuth.indexOf('/');
  const path = slash < 0 ? '' : afterAuth.slice(slash + 1);
  const last =
    path
      .split('/')
      .filter((s) => s.length > 0)
      .pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    throw new MemoryError(ErrorCode.CONFIG_INVALID, 'the database name in the MongoDB URL is not valid');
  }
  return name.length > 0 ? checkDbName(name) : DEFAULT_DB;
}

const QUERY_PLANS: readonly string[] = ['auto', 'mongodb', 'ferretdb'];

/** The `queryPlan` option, `auto` when absent; CONFIG_INVALID for any other value. */
export function checkQueryPlan(plan: MongoStoreOptions['queryPlan']): 'auto' | QueryPlan {
  if (plan === undefined) return 'auto';
  if (!QUERY_PLANS.includes(plan))
    throw new MemoryError(ErrorCode.CONFIG_INVALID, "queryPlan is one of 'auto', 'mongodb', 'ferretdb'");
  return plan;
}

export function checkDbName(name: string): string {
  if (name.length === 0 || name.length > 63 || INVALID_DB_CHARS.test(name))
    throw new MemoryError(ErrorCode.CONFIG_INVALID, 'the MongoDB database name is not valid');
  return name;
}

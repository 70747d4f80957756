import { readFileSync } from 'node:fs';
import { storeRequire } from './paths.js';

/** The few better-sqlite3 calls the checks use (the tests package has no driver types of its own). */
export interface RawStatement {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  run(...params: unknown[]): { changes: number };
}
export interface RawDatabase {
  prepare(sql: string): RawStatement;
  exec(sql: string): void;
  pragma(sql: string, options?: { simple?: boolean }): unknown;
  close(): void;
  readonly open: boolean;
}
type DatabaseCtor = new (path: string, options?: { readonly?: boolean; timeout?: number }) => RawDatabase;

/** better-sqlite3 exactly as the store resolves it. */
export const Database = storeRequire('better-sqlite3') as DatabaseCtor;
const sqliteVec = storeRequire('sqlite-vec') as { load(db: RawDatabase): void };

/** Opens the file with sqlite-vec loaded (vec0 tables readable). */
export function openRaw(path: string, options: { readonly?: boolean } = {}): RawDatabase {
  const db = new Database(path, { timeout: 10_000, ...options });
  sqliteVec.load(db);
  return db;
}

export interface ConsistencyReport {
  /** `PRAGMA integrity_check` rows (`['ok']` when healthy). */
  readonly integrity: string[];
  /** FTS5 integrity-check of both keyword indexes ('ok' or the error). */
  readonly ftsIntegrity: string[];
  readonly facts: number;
  readonly factVectors: number;
  /** Fact ids without a vector id row. */
  readonly factsWithoutVector: string[];
  /** Vector id rows (kind fact) without a fact. */
  readonly vectorsWithoutFact: string[];
  /** vec0 rows without an id-map row, and id-map rows without a vec0 row. */
  readonly orphanVecRows: number;
  readonly missingVecRows: number;
  /** Keyword rows (facts_fts) whose rowid is no fact, and facts without a keyword row. */
  readonly orphanKeywordRows: number;
  readonly factsWithoutKeywords: number;
  /** Fact-history rows whose fact is gone, and links whose fact is gone. */
  readonly orphanHistory: number;
  readonly orphanLinks: number;
}

const count = (db: RawDatabase, sql: string, ...params: unknown[]) =>
  (db.prepare(sql).get(...params) as { n: number }).n;

/**
 * Cross-checks one SQLite file: page-level integrity, both FTS5 indexes, and that facts, vector id
 * map, vec0 rows, keyword rows, history and links all reference each other (nothing partial).
 */
export function inspectSqlite(path: string): ConsistencyReport {
  const db = openRaw(path);
  try {
    const integrity = (db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[]).map(
      (r) => r.integrity_check,
    );
    const ftsIntegrity = ['facts_fts', 'messages_fts'].map((t) => {
      try {
        db.exec(`INSERT INTO ${t} (${t}) VALUES ('integrity-check')`);
        return 'ok';
      } catch (error) {
        return `${t}: ${String(error)}`;
      }
    });
    const factIds = new Set((db.prepare('SELECT id FROM facts').all() as { id: string }[]).map((r) => r.id));
    const vectorIds = new Set(
      (db.prepare("SELECT item_id FROM vector_ids WHERE kind = 'fact'").all() as { item_id: string }[]).map(
        (r) => r.item_id,
      ),
    );
    // Vectors live in one vec0 table per kind (fact vectors sharded by subject); vector_ids maps
    // each item to its row id.
    const has = (name: string) =>
      count(db, `SELECT count(*) AS n FROM sqlite_master WHERE name = '${name}'`) > 0;
    const tables = (['fact', 'message'] as const).map((kind) => ({
      kind,
      table: kind === 'fact' ? 'vec_facts' : 'vec_messages',
    }));
    let orphanVecRows = 0;
    let missingVecRows = 0;
    for (const { kind, table } of tables) {
      if (!has(table)) {
        missingVecRows += count(db, `SELECT count(*) AS n FROM vector_ids WHERE kind = '${kind}'`);
        continue;
      }
      orphanVecRows += count(
        db,
        `SELECT count(*) AS n FROM ${table} v WHERE NOT EXISTS (SELECT 1 FROM vector_ids i WHERE i.row_id = v.item_id AND i.kind = '${kind}')`,
      );
      missingVecRows += count(
        db,
        `SELECT count(*) AS n FROM vector_ids i WHERE i.kind = '${kind}' AND NOT EXISTS (SELECT 1 FROM ${table} v WHERE v.item_id = i.row_id)`,
      );
    }
    return {
      integrity,
      ftsIntegrity,
      facts: factIds.size,
      factVectors: vectorIds.size,
      factsWithoutVector: [...factIds].filter((id) => !vectorIds.has(id)),
      vectorsWithoutFact: [...vectorIds].filter((id) => !factIds.has(id)),
      orphanVecRows,
      missingVecRows,
      orphanKeywordRows: count(
        db,
        'SELECT count(*) AS n FROM facts_fts k WHERE NOT EXISTS (SELECT 1 FROM facts f WHERE f.row_id = k.rowid)',
      ),
      factsWithoutKeywords: count(
        db,
        'SELECT count(*) AS n FROM facts f WHERE NOT EXISTS (SELECT 1 FROM facts_fts k WHERE k.rowid = f.row_id)',
      ),
      orphanHistory: count(
        db,
        'SELECT count(*) AS n FROM fact_history h WHERE NOT EXISTS (SELECT 1 FROM facts f WHERE f.guild_id = h.guild_id AND f.id = h.fact_id)',
      ),
      orphanLinks: count(
        db,
        'SELECT count(*) AS n FROM links l WHERE NOT EXISTS (SELECT 1 FROM facts f WHERE f.guild_id = l.guild_id AND f.id = l.fact_id)',
      ),
    };
  } finally {
    db.close();
  }
}

/** The report a healthy file gives (for `toMatchObject`). */
export const CONSISTENT = {
  integrity: ['ok'],
  ftsIntegrity: ['ok', 'ok'],
  factsWithoutVector: [],
  vectorsWithoutFact: [],
  orphanVecRows: 0,
  missingVecRows: 0,
  orphanKeywordRows: 0,
  factsWithoutKeywords: 0,
  orphanHistory: 0,
  orphanLinks: 0,
} as const;

export interface MessageRow {
  readonly message_id: string;
  readonly guild_id: string;
  readonly author_id: string;
  readonly content: string;
  readonly status: string;
  readonly attempts: number;
}

export function messageRows(path: string): MessageRow[] {
  const db = openRaw(path, { readonly: true });
  try {
    return db
      .prepare(
        'SELECT message_id, guild_id, author_id, content, status, attempts FROM messages ORDER BY row_id',
      )
      .all() as MessageRow[];
  } finally {
    db.close();
  }
}

export interface FactRow {
  readonly id: string;
  readonly guild_id: string;
  readonly subject_id: string | null;
  readonly text: string;
  readonly normalized_text: string;
  readonly occurrences: number;
  readonly valid_until: number | null;
  readonly superseded_by_id: string | null;
}

export function factRows(path: string): FactRow[] {
  const db = openRaw(path, { readonly: true });
  try {
    return db
      .prepare(
        'SELECT id, guild_id, subject_id, text, normalized_text, occurrences, valid_until, superseded_by_id FROM facts ORDER BY row_id',
      )
      .all() as FactRow[];
  } finally {
    db.close();
  }
}

/** The database file and its WAL / shared-memory companions, as bytes (missing files are empty). */
export function fileBytes(path: string): Buffer {
  const parts: Buffer[] = [];
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    try {
      parts.push(readFileSync(path + suffix));
    } catch {
      // absent
    }
  }
  return Buffer.concat(parts);
}

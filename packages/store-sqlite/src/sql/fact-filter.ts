import type { FactFilter, FactValidity } from '@permafrost/core/store';
import { idList } from '../rows/codec.js';

export interface SqlPart {
  readonly sql: string;
  readonly params: (string | number)[];
}

/** WHERE conditions for a fact validity (default active) on table alias `a`. */
export function validitySql(validity: FactValidity | undefined, a: string): SqlPart {
  if (validity === undefined || validity === 'active')
    return { sql: `${a}.superseded_by_id IS NULL AND ${a}.valid_until IS NULL`, params: [] };
  if (validity === 'any') return { sql: '1', params: [] };
  const t = validity.asOf.getTime();
  return {
    sql: `${a}.valid_from <= ? AND (${a}.valid_until IS NULL OR ${a}.valid_until > ?)`,
    params: [t, t],
  };
}

/**
 * Row ids of the filter's scope as a subquery: its subjects' rows (plus the server's with
 * includeServer), or the server's rows; null for a whole guild. Drawn from the (guild, subject)
 * index, so the plan does not depend on ANALYZE statistics (an OR of IN and IS NULL scans the guild).
 */
function scopeRows(filter: FactFilter): SqlPart | null {
  const server = 'SELECT row_id FROM facts WHERE guild_id = ? AND subject_id IS NULL';
  if (filter.serverOnly) return { sql: server, params: [filter.guildId] };
  if (!filter.subjectIds) return null;
  const subjects =
    'SELECT row_id FROM facts WHERE guild_id = ? AND subject_id IN (SELECT value FROM json_each(?))';
  const params: (string | number)[] = [filter.guildId, idList(filter.subjectIds)];
  if (filter.includeServer) params.push(filter.guildId);
  return { sql: filter.includeServer ? `${subjects} UNION ALL ${server}` : subjects, params };
}

/** WHERE conditions for guild, subject/server scope and validity of a FactFilter. */
export function factFilterSql(filter: FactFilter, a = 'f'): SqlPart {
  const parts: string[] = [];
  const params: (string | number)[] = [];
  if (filter.serverOnly || !filter.subjectIds) {
    parts.push(`${a}.guild_id = ?`);
    params.push(filter.guildId);
  }
  if (filter.serverOnly) {
    parts.push(`${a}.subject_id IS NULL`);
  } else if (filter.subjectIds) {
    // The rowid set implies the guild; repeating guild_id outside would lure the planner into a scan.
    const rows = scopeRows(filter) as SqlPart;
    parts.push(`${a}.row_id IN (${rows.sql})`);
    params.push(...rows.params);
  }
  const validity = validitySql(filter.validity, a);
  parts.push(validity.sql);
  params.push(...validity.params);
  return { sql: parts.join(' AND '), params };
}

/**
 * WHERE conditions of a keyword search joining `fts` (the keyword index) to facts `a`. Subject and
 * server scope test the index rowid against the scope's row ids before any fact row is read (the
 * `+` keeps the planner from probing the index once per row id), so matches outside the scope cost
 * no table lookup; a whole-guild search checks the fact row.
 */
export function ftsFilterSql(filter: FactFilter, fts: string, a = 'f'): SqlPart {
  const rows = scopeRows(filter);
  const scope: SqlPart = rows
    ? { sql: `+${fts}.rowid IN (${rows.sql})`, params: rows.params }
    : { sql: `${a}.guild_id = ?`, params: [filter.guildId] };
  const validity = validitySql(filter.validity, a);
  return { sql: `${scope.sql} AND ${validity.sql}`, params: [...scope.params, ...validity.params] };
}

import type { FactFilter, FactValidity } from '@permafrost/core';
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
    // Rows of the subjects (and server) as a rowid set drawn from the (guild, subject) index, so
    // the plan does not depend on ANALYZE statistics (an OR of IN and IS NULL scans the guild).
    // The set implies the guild; repeating guild_id outside would lure the planner into a scan.
    const subjects =
      'SELECT row_id FROM facts WHERE guild_id = ? AND subject_id IN (SELECT value FROM json_each(?))';
    const server = 'SELECT row_id FROM facts WHERE guild_id = ? AND subject_id IS NULL';
    parts.push(`${a}.row_id IN (${subjects}${filter.includeServer ? ` UNION ALL ${server}` : ''})`);
    params.push(filter.guildId, idList(filter.subjectIds));
    if (filter.includeServer) params.push(filter.guildId);
  }
  const validity = validitySql(filter.validity, a);
  parts.push(validity.sql);
  params.push(...validity.params);
  return { sql: parts.join(' AND '), params };
}

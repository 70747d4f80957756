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
  const parts = [`${a}.guild_id = ?`];
  const params: (string | number)[] = [filter.guildId];
  if (filter.serverOnly) {
    parts.push(`${a}.subject_id IS NULL`);
  } else if (filter.subjectIds) {
    const inList = `${a}.subject_id IN (SELECT value FROM json_each(?))`;
    parts.push(filter.includeServer ? `(${inList} OR ${a}.subject_id IS NULL)` : inList);
    params.push(idList(filter.subjectIds));
  }
  const validity = validitySql(filter.validity, a);
  parts.push(validity.sql);
  params.push(...validity.params);
  return { sql: parts.join(' AND '), params };
}

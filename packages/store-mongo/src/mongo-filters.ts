import type { FactFilter, FactValidity } from '@permafrost/core/store';
import type { Document } from 'mongodb';
import { requireId, requireIds, validDate } from './mongo-keys.js';
import type { FactDoc } from './mongo-memory-docs.js';

/** `{validity}` as a query. Every user value is wrapped in `$eq`/`$in` and checked to be a string. */
export function validityQuery(validity: FactValidity | undefined): Document {
  if (validity === undefined || validity === 'active') return { active: { $eq: true } };
  if (validity === 'any') return {};
  const asOf = validDate(validity.asOf, 'asOf');
  return { validFrom: { $lte: asOf }, $or: [{ validUntil: null }, { validUntil: { $gt: asOf } }] };
}

export function scopeQuery(filter: FactFilter): Document {
  if (filter.serverOnly) return { subjectId: null };
  if (filter.subjectIds) {
    const ids = requireIds(filter.subjectIds, 'subjectIds');
    return filter.includeServer
      ? { $or: [{ subjectId: { $in: ids } }, { subjectId: null }] }
      : { subjectId: { $in: ids } };
  }
  return {};
}

/** The whole FactFilter as one query (the two `$or`s are combined under `$and`). */
export function factQuery(filter: FactFilter): Document {
  const parts = [scopeQuery(filter), validityQuery(filter.validity)].filter((p) => Object.keys(p).length > 0);
  const guild = { guildId: { $eq: requireId(filter.guildId, 'guildId') } };
  return parts.length === 0 ? guild : { ...guild, $and: parts };
}

/** The same filter evaluated in process (keyword search ranks a superset fetched by terms). */
export function factPasses(d: FactDoc, filter: FactFilter): boolean {
  if (d.guildId !== filter.guildId) return false;
  if (filter.serverOnly) {
    if (d.subjectId !== null) return false;
  } else if (filter.subjectIds) {
    if (d.subjectId === null ? filter.includeServer !== true : !filter.subjectIds.includes(d.subjectId))
      return false;
  }
  const v = filter.validity;
  if (v === undefined || v === 'active') return d.supersededById === null && d.validUntil === null;
  if (v === 'any') return true;
  const t = v.asOf.getTime();
  return d.validFrom.getTime() <= t && (d.validUntil === null || d.validUntil.getTime() > t);
}

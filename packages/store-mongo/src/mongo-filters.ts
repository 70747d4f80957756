import type { FactFilter, FactValidity } from '@permafrost/core/store';
import type { Document } from 'mongodb';
import { requireId, requireIds, SERVER_SCOPE, validDate } from './mongo-keys.js';
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
    if (!filter.includeServer && ids.length === 1) return { subjectId: { $eq: ids[0] } };
    return filter.includeServer
      ? { $or: [{ subjectId: { $in: ids } }, { subjectId: null }] }
      : { subjectId: { $in: ids } };
  }
  return {};
}

/**
 * The whole FactFilter as one query. Conditions on distinct fields stay top-level (a top-level
 * equality is what FerretDB pushes down to an index); two `$or`s are combined under `$and`.
 */
export function factQuery(filter: FactFilter): Document {
  const out: Document = { guildId: { $eq: requireId(filter.guildId, 'guildId') } };
  const ors: Document[] = [];
  for (const part of [scopeQuery(filter), validityQuery(filter.validity)])
    for (const [k, v] of Object.entries(part)) {
      if (k === '$or') ors.push({ $or: v });
      else out[k] = v;
    }
  if (ors.length === 1) Object.assign(out, ors[0]);
  else if (ors.length > 1) out['$and'] = ors;
  return out;
}

/**
 * For FerretDB, an active-only subject scope as equality-only alternatives (one query each,
 * merged by the caller): one per subject, the server's facts by their scope key `sk` (FerretDB
 * pushes no `subjectId: null` down). Null when the scope is the whole guild or not active-only.
 */
export function factAlternatives(filter: FactFilter): Document[] | null {
  const v = filter.validity;
  if (v !== undefined && v !== 'active') return null;
  if (filter.serverOnly) return [{ sk: { $eq: SERVER_SCOPE } }];
  if (!filter.subjectIds) return null;
  const alts: Document[] = [...new Set(requireIds(filter.subjectIds, 'subjectIds'))].map((id) => ({
    subjectId: { $eq: id },
  }));
  if (filter.includeServer) alts.push({ sk: { $eq: SERVER_SCOPE } });
  return alts;
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

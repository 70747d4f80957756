import type { Collection, Filter } from 'mongodb';
import type { GuardedDoc } from './guard-types.js';
import { withUsers } from './mongo-alias-store.js';
import type { MongoContext } from './mongo-context.js';
import { SERVER_SCOPE } from './mongo-keys.js';
import type { AliasDoc, FactDoc } from './mongo-memory-docs.js';

/**
 * Rewrites the documents an earlier version left without a field, once per database (the
 * `store_meta` marker records it), through guarded writes: safe from several processes at once and
 * next to concurrent writers, which write the field themselves. Reads every id first, then writes
 * (the guard writes them a few at a time: see WRITE_CHUNK in doc-guard.ts).
 */
async function migrateOnce<D extends GuardedDoc>(
  ctx: MongoContext,
  marker: string,
  coll: Collection<D>,
  missing: Filter<D>,
  change: (current: D | null) => D | null,
): Promise<number> {
  if (await ctx.c.storeMeta.findOne({ _id: marker })) return 0;
  const ids = (await coll.find(missing, { projection: { _id: 1 } }).toArray()).map((d) => d._id);
  const out = await ctx.guard.mutateMany(coll, ids, change);
  await ctx.upsert(ctx.c.storeMeta, marker, { value: 1 });
  return [...out.values()].filter((o) => o.changed).length;
}

/**
 * Server facts written before facts carried a scope key (`sk`, see SERVER_SCOPE) get theirs.
 * Member facts need none (they are read by `subjectId`).
 */
export function migrateFactScopes(ctx: MongoContext): Promise<number> {
  return migrateOnce<FactDoc>(
    ctx,
    'migration.fact-scope-key',
    ctx.c.facts,
    { subjectId: null, sk: { $exists: false } },
    (f) => (f && f.subjectId === null && f.sk === undefined ? { ...f, sk: SERVER_SCOPE } : null),
  );
}

/** Alias documents written before they carried `userIds` (a member's aliases are read by it) get theirs. */
export function migrateAliasUserIds(ctx: MongoContext): Promise<number> {
  return migrateOnce<AliasDoc>(
    ctx,
    'migration.alias-user-ids',
    ctx.c.aliases,
    { userIds: { $exists: false } },
    (d) => (d && d.userIds === undefined ? withUsers(d, d.users) : null),
  );
}

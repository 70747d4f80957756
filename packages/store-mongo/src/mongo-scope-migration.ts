import type { MongoContext } from './mongo-context.js';
import { SERVER_SCOPE } from './mongo-keys.js';
import type { FactDoc } from './mongo-memory-docs.js';

const MIGRATED_KEY = 'migration.fact-scope-key';
const CHUNK = 16;

/**
 * Gives server facts written before facts carried a scope key (`sk`, see SERVER_SCOPE) theirs,
 * once per database (a `store_meta` marker records it), through guarded writes: safe from several
 * processes and next to concurrent writers. Member facts need none (they are read by `subjectId`).
 */
export async function migrateFactScopes(ctx: MongoContext): Promise<number> {
  if (await ctx.c.storeMeta.findOne({ _id: MIGRATED_KEY })) return 0;
  let changed = 0;
  // Every id first, then the writes: FerretDB v1 stops answering when a cursor on a collection
  // is still open while guarded writes go to that collection.
  const ids = (
    await ctx.c.facts.find({ subjectId: null, sk: { $exists: false } }, { projection: { _id: 1 } }).toArray()
  ).map((d) => d._id);
  for (let i = 0; i < ids.length; i += CHUNK) {
    const batch = ids.slice(i, i + CHUNK);
    const out = await ctx.guard.mutateMany(ctx.c.facts, batch, (f: FactDoc | null) =>
      f && f.subjectId === null && f.sk === undefined ? { ...f, sk: SERVER_SCOPE } : null,
    );
    changed += [...out.values()].filter((o) => o.changed).length;
  }
  await ctx.upsert(ctx.c.storeMeta, MIGRATED_KEY, { value: 1 });
  return changed;
}

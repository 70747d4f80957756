import { withUsers } from './mongo-alias-store.js';
import type { MongoContext } from './mongo-context.js';
import type { AliasDoc } from './mongo-memory-docs.js';

const MIGRATED_KEY = 'migration.alias-user-ids';
const CHUNK = 16;

/**
 * Gives alias documents written before they carried `userIds` theirs (a member's aliases are read
 * by it), once per database (a `store_meta` marker records it), through guarded writes: safe from
 * several processes and next to concurrent writers, which write `userIds` themselves.
 */
export async function migrateAliasUserIds(ctx: MongoContext): Promise<number> {
  if (await ctx.c.storeMeta.findOne({ _id: MIGRATED_KEY })) return 0;
  let changed = 0;
  // Every id first, then the writes: FerretDB v1 stops answering when a cursor on a collection
  // is still open while guarded writes go to that collection.
  const ids = (
    await ctx.c.aliases.find({ userIds: { $exists: false } }, { projection: { _id: 1 } }).toArray()
  ).map((d) => d._id);
  for (let i = 0; i < ids.length; i += CHUNK) {
    const batch = ids.slice(i, i + CHUNK);
    const out = await ctx.guard.mutateMany(ctx.c.aliases, batch, (d: AliasDoc | null) =>
      d && d.userIds === undefined ? withUsers(d, d.users) : null,
    );
    changed += [...out.values()].filter((o) => o.changed).length;
  }
  await ctx.upsert(ctx.c.storeMeta, MIGRATED_KEY, { value: 1 });
  return changed;
}

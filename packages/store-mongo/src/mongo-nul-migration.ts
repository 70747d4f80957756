import { insertTolerant } from './insert-tolerant.js';
import type { MongoContext } from './mongo-context.js';
import { encodeString } from './nul-free.js';
import { raw } from './raw-doc.js';

const MIGRATED_KEY = 'migration.nul-free-vector-scope';
/** Before stored strings were NUL-free (nul-free.ts), server vectors were scoped by `sk: '\0'`. */
const OLD_SERVER_SCOPE = '\u0000';

/**
 * Rewrites vector documents written by earlier versions with the raw NUL scope key to its encoded
 * form, once per database (a `store_meta` marker records it). Idempotent and safe from several
 * processes: the update sets the same value whoever runs it.
 */
export async function migrateNulScopes(ctx: MongoContext): Promise<void> {
  if (await ctx.c.storeMeta.findOne({ _id: MIGRATED_KEY })) return;
  for (const coll of [ctx.c.factVectors, ctx.c.messageVectors]) {
    // The un-encoded collection: through ctx.c the filter itself would be encoded. A server
    // that refuses NUL even in a filter (FerretDB on PostgreSQL) cannot hold such documents.
    await ctx.db
      .collection(coll.collectionName)
      .updateMany({ sk: OLD_SERVER_SCOPE }, { $set: { sk: encodeString(OLD_SERVER_SCOPE) } })
      .catch((error: unknown) => {
        if (!/SQLSTATE 22P05/.test(error instanceof Error ? error.message : '')) throw error;
      });
  }
  await insertTolerant(raw(ctx.c.storeMeta), [{ _id: MIGRATED_KEY, value: 1 }]);
}

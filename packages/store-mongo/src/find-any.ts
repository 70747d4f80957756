import type { Collection, Document } from 'mongodb';
import type { MongoContext } from './mongo-context.js';
import type { RawDoc } from './raw-doc.js';

/**
 * Documents matching `filter` plus any one of `alternatives` (each an equality filter). FerretDB
 * pushes only equality filters down to its backend and answers `$or`/`$in` by decoding the whole
 * collection, so there it sends one query per alternative, concurrently, and merges by `_id`;
 * elsewhere one `$or` query.
 */
export async function findAny<D extends RawDoc>(
  ctx: MongoContext,
  coll: Collection<RawDoc>,
  filter: Document,
  alternatives: readonly Document[],
  options: { projection?: Document } = {},
): Promise<D[]> {
  if (alternatives.length === 0) return [];
  if (alternatives.length === 1)
    return (await coll
      .find({ ...filter, ...alternatives[0] }, { ...options, ...ctx.readOpts() })
      .toArray()) as D[];
  if (!ctx.ferretPlan || ctx.session())
    return (await coll
      .find({ ...filter, $or: [...alternatives] }, { ...options, ...ctx.readOpts() })
      .toArray()) as D[];
  const byId = new Map<unknown, D>();
  const rest: D[] = [];
  await ctx.each(alternatives, async (alt) => {
    for (const d of await coll.find({ ...filter, ...alt }, { ...options, ...ctx.readOpts() }).toArray()) {
      if (d._id === undefined) rest.push(d as D);
      else byId.set(d._id, d as D);
    }
  });
  return [...byId.values(), ...rest];
}

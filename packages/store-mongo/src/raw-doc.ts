import type { Collection, Document } from 'mongodb';

/** Untyped view of a collection whose `_id`s are strings. */
export type RawDoc = Document & { _id: string };

export function raw<D extends { _id: string }>(coll: Collection<D>): Collection<RawDoc> {
  return coll as unknown as Collection<RawDoc>;
}

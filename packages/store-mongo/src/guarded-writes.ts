// The writes of a guarded change (doc-guard.ts), once the writer may make them.
import { ErrorCode, MemoryError } from '@permafrost/core';
import type { AnyBulkWriteOperation, Collection } from 'mongodb';
import { type Change, DELETE, type GuardedDoc, type GuardOptions, type Outcome } from './guard-types.js';
import { newEpoch } from './mongo-keys.js';
import type { RawDoc } from './raw-doc.js';
import { changedFields } from './write-groups.js';

/** A new version of `doc`: its id, and a fresh version stamp. */
export function stampVersion<D extends GuardedDoc>(doc: D, id: string): D {
  return { ...doc, _id: id, ep: newEpoch() };
}

/**
 * Writes changes to documents whose version token we hold, filtered on `{_id, ep}` with the
 * version the change was computed from: a document that another writer moved past that version
 * (its token freed before ours was taken) matches nothing and is retried. The filter is safe on
 * servers whose updates are not atomic: only the token holder writes from that version, and a
 * writer from an older one reads a version that no longer matches. FerretDB on PostgreSQL
 * serves both equalities from the `_id` index (measured: 1.7 ms against 1.2 ms for `{_id}` at
 * 10k documents). All writes go in one unordered bulk command.
 */
export async function writeHeld<D extends GuardedDoc>(
  coll: Collection<D>,
  writes: readonly { id: string; before: D; after: D | typeof DELETE }[],
  readMany: (coll: Collection<D>, ids: readonly string[]) => Promise<Map<string, D>>,
): Promise<{ id: string; before: D; after: D | null; landed: boolean }[]> {
  const rawColl = coll as unknown as Collection<RawDoc>;
  const ep = newEpoch();
  const ops: AnyBulkWriteOperation<RawDoc>[] = writes.map((w) =>
    w.after === DELETE
      ? { deleteOne: { filter: { _id: w.id, ep: w.before.ep } } }
      : {
          updateOne: {
            filter: { _id: w.id, ep: w.before.ep },
            update: { $set: { ...changedFields(w.before, w.after), ep } },
          },
        },
  );
  const r = await rawColl.bulkWrite(ops, { ordered: false });
  let check: Map<string, D> | null = null;
  if (r.matchedCount + r.deletedCount !== writes.length)
    check = await readMany(
      coll,
      writes.map((w) => w.id),
    );
  return writes.map((w) => {
    const after = w.after === DELETE ? null : { ...w.after, ep };
    const landed = check === null || (after === null ? !check.has(w.id) : check.get(w.id)?.ep === ep);
    return { id: w.id, before: w.before, after, landed };
  });
}

/**
 * Inside a session transaction (real MongoDB): a compare-and-set on `{_id, ep}`; the server's
 * write-conflict detection serialises writers and aborts the transaction on a race.
 */
export async function mutateInTransaction<D extends GuardedDoc>(
  coll: Collection<D>,
  id: string,
  change: (current: D | null, id: string) => Change<D>,
  options: GuardOptions<D>,
  opts: object,
): Promise<Outcome<D>> {
  const rawColl = coll as unknown as Collection<RawDoc>;
  const before = (await rawColl.findOne({ _id: id }, opts)) as D | null;
  const next = change(before, id);
  if (next === null || (before === null && next === DELETE)) return { before, after: before, changed: false };
  if (before === null) {
    const doc = stampVersion(next as D, id);
    await rawColl.insertOne(doc, opts);
    return { before, after: doc, changed: true };
  }
  const after = next === DELETE ? DELETE : stampVersion(next, id);
  if (options.beforeWrite) await options.beforeWrite(before, after);
  const filter = { _id: id, ep: before.ep };
  const r =
    after === DELETE
      ? (await rawColl.deleteOne(filter, opts)).deletedCount
      : (await rawColl.replaceOne(filter, after, opts)).matchedCount;
  if (r !== 1) throw new MemoryError(ErrorCode.CONFLICT, 'a concurrent writer changed the document');
  return { before, after: after === DELETE ? null : after, changed: true };
}

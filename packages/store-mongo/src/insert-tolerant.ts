import type { Collection } from 'mongodb';
import { MongoBulkWriteError } from 'mongodb';
import type { RawDoc } from './raw-doc.js';

/** insertMany(ordered: false); returns the indexes that hit a duplicate key (other errors throw). */
export async function insertTolerant(
  coll: Collection<RawDoc>,
  docs: readonly RawDoc[],
  opts: object = {},
): Promise<Set<number>> {
  const lost = new Set<number>();
  if (docs.length === 0) return lost;
  try {
    await coll.insertMany([...docs], { ordered: false, ...opts });
  } catch (error) {
    if (!(error instanceof MongoBulkWriteError)) {
      if (isDuplicateKey(error) && docs.length === 1) return new Set([0]);
      throw error;
    }
    const errors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
    if (errors.length === 0) throw error;
    for (const e of errors) {
      if (e.code !== 11000) throw error;
      lost.add(e.index);
    }
  }
  return lost;
}

export function isDuplicateKey(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}

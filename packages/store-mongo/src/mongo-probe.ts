import type { MongoClient } from 'mongodb';
import { randomToken } from './mongo-keys.js';
import type { Collections } from './mongo-schema.js';
import { probeVectorSearch } from './mongo-vector-search.js';
import type { ServerProfile } from './server-profile.js';

/**
 * Learns what the server can do by trying it, not by its version string (FerretDB reports 7.0.x):
 * - transactions: a session transaction must abort without leaving its write and then commit one
 *   (fails on FerretDB, code 9 "autocommit", and on standalone mongod, code 20);
 * - `$vectorSearch`: an aggregate with the stage must be accepted (FerretDB: 40234);
 * - FerretDB identity (`buildInfo.ferretdbVersion`) only selects the `ferretdb` query plan (point
 *   reads over `$in`, which it answers with a collection scan). Non-atomic updates cannot be
 *   probed cheaply, so the guard (doc-guard.ts) is always on.
 */
export async function probeServer(client: MongoClient, c: Collections): Promise<ServerProfile> {
  const info = (await client.db('admin').command({ buildInfo: 1 })) as {
    ferretdbVersion?: unknown;
    ferretdb?: unknown;
  };
  const ferret = typeof info.ferretdbVersion === 'string' || info.ferretdb !== undefined;
  const [transactions, vectorSearch] = [
    await probeTransactions(client, c),
    await probeVectorSearch(c.factVectors),
  ];
  return { ferret, queryPlan: ferret ? 'ferretdb' : 'mongodb', transactions, vectorSearch };
}

async function probeTransactions(client: MongoClient, c: Collections): Promise<boolean> {
  const id = `probe.tx.${randomToken()}`;
  const session = client.startSession();
  try {
    session.startTransaction();
    await c.storeMeta.insertOne({ _id: id, value: 1 }, { session });
    await session.abortTransaction();
    if (await c.storeMeta.findOne({ _id: id })) return false;
    session.startTransaction();
    await c.storeMeta.insertOne({ _id: id, value: 1 }, { session });
    await session.commitTransaction();
    return (await c.storeMeta.findOne({ _id: id })) !== null;
  } catch {
    if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
    return false;
  } finally {
    await c.storeMeta.deleteOne({ _id: id }).catch(() => undefined);
    await session.endSession().catch(() => undefined);
  }
}

import { MongoClient, type MongoClientOptions } from 'mongodb';
import { afterAll, beforeAll } from 'vitest';

/**
 * Which backends this run tests: env `STORES` (comma-separated, default `memory,sqlite`; CI sets
 * `memory,sqlite,mongo`). When `mongo` is selected the Mongo test files must reach `MONGO_URL` or
 * fail; when it is not selected they register their suites as skipped, explicitly.
 */
const { STORES, MONGO_URL } = process.env;

export const selectedStores: readonly string[] = (STORES ?? 'memory,sqlite')
  .split(',')
  .map((s) => s.trim())
  .filter((s) => s.length > 0);

export const mongoSelected = selectedStores.includes('mongo');

export function requireMongoUrl(): string {
  const url = MONGO_URL;
  if (!url) {
    throw new Error(
      'STORES includes mongo but MONGO_URL is not set: start a server (eval "$(scripts/ferretdb.sh start)") or remove mongo from STORES',
    );
  }
  return url;
}

/**
 * For the describe block that calls it: a client on MONGO_URL, connected before the block's tests,
 * and a database name of its own (`<prefix>_<pid>_<time>`), dropped after them with the client
 * closed. `client` is readable once the block's tests run.
 */
export function scratchDatabase(
  prefix: string,
  options: MongoClientOptions = {},
): { readonly client: MongoClient; readonly db: string } {
  const db = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  let client: MongoClient | undefined;
  beforeAll(async () => {
    client = new MongoClient(requireMongoUrl(), { serverSelectionTimeoutMS: 5_000, ...options });
    await client.connect();
  });
  afterAll(async () => {
    await client?.db(db).dropDatabase();
    await client?.close();
  });
  return {
    db,
    get client(): MongoClient {
      if (!client)
        throw new Error('scratchDatabase: the client is connected in beforeAll; read it inside a test');
      return client;
    },
  };
}

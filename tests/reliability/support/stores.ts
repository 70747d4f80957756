import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { MemoryConfigInput, MemoryOverrides } from '@permafrost/core';
import '@permafrost/store-sqlite';
import { createMongoStore } from '@permafrost/store-mongo';
import { ROOT, tempDir } from './paths.js';

/** One store the cross-store properties run on. */
export interface StoreUnderTest {
  readonly name: 'memory' | 'sqlite' | 'mongo';
  /** A fresh, empty store: the `storage` value plus overrides, and the SQLite file path, if any. */
  open(): StoreInstance;
}

export interface StoreInstance {
  readonly storage: NonNullable<MemoryConfigInput['storage']>;
  readonly overrides: MemoryOverrides;
  readonly path: string | null;
  cleanup(): Promise<void>;
}

interface MongoClientLike {
  connect(): Promise<unknown>;
  db(name: string): { dropDatabase(): Promise<unknown>; command(c: object): Promise<unknown> };
  close(): Promise<void>;
}
type MongoClientCtor = new (url: string, options?: object) => MongoClientLike;

/** The Mongo driver exactly as the store resolves it (the tests package does not depend on it). */
const mongoRequire = createRequire(join(ROOT, 'packages', 'store-mongo', 'package.json'));

/** `MONGO_URL` when `mongo` is selected; a selected store that is missing fails, it is never skipped. */
export function requireMongoUrl(): string {
  const url = process.env['MONGO_URL'];
  if (!url)
    throw new Error(
      'STORES includes mongo but MONGO_URL is not set: start a server (eval "$(scripts/ferretdb.sh start)") or remove mongo from STORES',
    );
  return url;
}

let mongoClient: MongoClientLike | null = null;
let dbs = 0;

function mongoStore(): StoreUnderTest {
  const url = requireMongoUrl();
  return {
    name: 'mongo',
    open() {
      if (!mongoClient) {
        const { MongoClient } = mongoRequire('mongodb') as { MongoClient: MongoClientCtor };
        mongoClient = new MongoClient(url, { serverSelectionTimeoutMS: 5_000 });
      }
      const client = mongoClient;
      const dbName = `pf_rel_${process.pid}_${Date.now().toString(36)}_${++dbs}`;
      const store = createMongoStore({ client: client as never, dbName });
      return {
        storage: `mongodb://unused/${dbName}`,
        overrides: { store },
        path: null,
        async cleanup() {
          await client.db(dbName).dropDatabase();
        },
      };
    },
  };
}

const BUILT_IN: readonly StoreUnderTest[] = [
  {
    name: 'memory',
    open: () => ({ storage: 'memory', overrides: {}, path: null, cleanup: async () => {} }),
  },
  {
    name: 'sqlite',
    open() {
      const tmp = tempDir('prop');
      const path = join(tmp.dir, 'p.db');
      return { storage: `sqlite://${path}`, overrides: {}, path, cleanup: async () => tmp.cleanup() };
    },
  },
];

/** Names selected by `STORES` (comma list; default `memory,sqlite`; `npm test` adds `mongo`). */
export function selectedStoreNames(): string[] {
  return (process.env['STORES'] ?? 'memory,sqlite')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The stores selected by `STORES`. An unknown name, or mongo without MONGO_URL, throws. */
export function selectedStores(): readonly StoreUnderTest[] {
  const wanted = selectedStoreNames();
  const out: StoreUnderTest[] = [];
  for (const name of wanted) {
    if (name === 'mongo') out.push(mongoStore());
    else {
      const store = BUILT_IN.find((s) => s.name === name);
      if (!store) throw new Error(`unknown STORES entry: ${name}`);
      out.push(store);
    }
  }
  return out;
}

/** Closes the shared Mongo client (call from afterAll in files that use the stores). */
export async function closeStores(): Promise<void> {
  const client = mongoClient;
  mongoClient = null;
  await client?.close();
}

/**
 * Property runs for a store: Mongo (several server round trips per call, FerretDB on the same
 * small CI machine) runs a tenth, at least 3, to keep the whole suite under five minutes.
 */
export function runsFor(store: StoreUnderTest, runs: number): number {
  return store.name === 'mongo' ? Math.max(3, Math.round(runs / 10)) : runs;
}

/** Drops a Mongo database (a throwaway one a test created). */
export async function dropMongoDatabase(url: string, dbName: string): Promise<void> {
  const { MongoClient } = mongoRequire('mongodb') as { MongoClient: MongoClientCtor };
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5_000 });
  try {
    await client.connect();
    await client.db(dbName).dropDatabase();
  } finally {
    await client.close();
  }
}

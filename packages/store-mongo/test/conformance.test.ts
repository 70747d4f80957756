import {
  describeQueueConformance,
  describeStoreConformance,
  describeVectorConformance,
} from '@permafrost/store-conformance';
import { createMongoStore, type MongoMemoryStore } from '@permafrost/store-mongo';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe } from 'vitest';
import { mongoSelected, requireMongoUrl } from './backend-selection.js';

// Selected → runs and fails loudly without a reachable MONGO_URL; not selected → skipped suite.
describe.runIf(mongoSelected)('mongo', () => {
  let client: MongoClient | undefined;
  let n = 0;

  beforeAll(async () => {
    client = new MongoClient(requireMongoUrl(), { serverSelectionTimeoutMS: 5_000 });
    await client.connect();
    await client.db('admin').command({ ping: 1 });
  });

  afterAll(async () => {
    await client?.close();
  });

  const options = {
    name: 'mongo',
    // A fresh database per test, dropped afterwards.
    create: async () => {
      if (!client) throw new Error('no MongoDB connection (see beforeAll)');
      const store = createMongoStore({
        client,
        dbName: `pf_conf_${process.pid}_${Date.now().toString(36)}_${++n}`,
      });
      await store.setup();
      return store;
    },
    destroy: async (store: unknown) => {
      const s = store as MongoMemoryStore;
      await client?.db(s.dbName).dropDatabase();
      await s.close();
    },
  };

  describeStoreConformance(options);
  describeQueueConformance(options);
  describeVectorConformance(options);
});

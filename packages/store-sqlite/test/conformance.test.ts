import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  describeQueueConformance,
  describeStoreConformance,
  describeVectorConformance,
} from '@permafrost/store-conformance';
import { createSqliteStore } from '@permafrost/store-sqlite';
import { afterAll } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'permafrost-sqlite-conformance-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const setUp = async (path: string) => {
  const store = createSqliteStore({ path });
  await store.setup();
  return store;
};

const file = { name: 'sqlite (file)', create: () => setUp(join(dir, `store-${++n}.db`)) };
const memory = { name: 'sqlite (:memory:)', create: () => setUp(':memory:') };

for (const options of [file, memory]) {
  describeStoreConformance(options);
  describeQueueConformance(options);
  describeVectorConformance(options);
}

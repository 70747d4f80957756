import { join } from 'node:path';
import type { MemoryConfigInput, MemoryOverrides } from '@permafrost/core';
import '@permafrost/store-sqlite';
import { tempDir } from './paths.js';

/** One store the cross-store properties run on. */
export interface StoreUnderTest {
  readonly name: 'memory' | 'sqlite';
  /** A fresh, empty store: the `storage` value (plus overrides) and the SQLite file path, if any. */
  open(): StoreInstance;
}

export interface StoreInstance {
  readonly storage: NonNullable<MemoryConfigInput['storage']>;
  readonly overrides: MemoryOverrides;
  readonly path: string | null;
  cleanup(): void;
}

const ALL: readonly StoreUnderTest[] = [
  {
    name: 'memory',
    open: () => ({ storage: 'memory', overrides: {}, path: null, cleanup() {} }),
  },
  {
    name: 'sqlite',
    open() {
      const tmp = tempDir('prop');
      const path = join(tmp.dir, 'p.db');
      return { storage: `sqlite://${path}`, overrides: {}, path, cleanup: tmp.cleanup };
    },
  },
];

/**
 * Stores selected by `STORES` (comma list; default every store implemented here). A selected store
 * that is not known fails loudly instead of being skipped.
 */
export function selectedStores(): readonly StoreUnderTest[] {
  const wanted = (process.env['STORES'] ?? 'memory,sqlite')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // The Mongo store is not part of this branch yet (packages/store-mongo/src is a stub).
  const known = wanted.filter((w) => w !== 'mongo');
  const unknown = known.filter((w) => !ALL.some((s) => s.name === w));
  if (unknown.length > 0) throw new Error(`unknown STORES entries: ${unknown.join(', ')}`);
  return ALL.filter((s) => known.includes(s.name));
}

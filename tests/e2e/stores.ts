import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '@permafrost/store-sqlite';
import '@permafrost/store-mongo';

/** Stores selected for this run (env STORES, default memory,sqlite); mongo needs MONGO_URL. */
export function selectedStores(): { name: string; url: () => string }[] {
  const names = (process.env['STORES'] ?? 'memory,sqlite').split(',').map((s) => s.trim());
  const out: { name: string; url: () => string }[] = [];
  if (names.includes('memory')) out.push({ name: 'memory', url: () => 'memory' });
  if (names.includes('sqlite'))
    out.push({
      name: 'sqlite',
      url: () => `sqlite://${join(mkdtempSync(join(tmpdir(), 'permafrost-e2e-')), 'e2e.db')}`,
    });
  if (names.includes('mongo')) {
    out.push({
      name: 'mongo',
      url: () => {
        const base = process.env['MONGO_URL'];
        if (!base)
          throw new Error('STORES includes mongo but MONGO_URL is not set (npm test starts FerretDB)');
        return `${base.replace(/\/[^/]*$/, '')}/pf_e2e_${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
      },
    });
  }
  return out;
}

import { renderChecks, runSimulation } from '@permafrost/example-e2e-simulation';
import { describe, expect, it } from 'vitest';
import { selectedStores } from './stores.js';

describe('end-to-end simulation (scripted model over loopback HTTP)', () => {
  for (const store of selectedStores()) {
    it(`passes every check on the ${store.name} store`, async () => {
      const result = await runSimulation({ storage: store.url() });
      const failed = result.checks.filter((c) => !c.ok);
      expect(failed, renderChecks(result)).toEqual([]);
      expect(result.checks.length).toBeGreaterThanOrEqual(20);
    }, 180_000);
  }
});

import { renderChecks, runSimulation } from '@permafrost/example-e2e-simulation';
import { describe, expect, it } from 'vitest';

describe('end-to-end simulation (scripted model over loopback HTTP)', () => {
  it('passes every check on the in-memory store', async () => {
    const result = await runSimulation({ storage: 'memory' });
    const failed = result.checks.filter((c) => !c.ok);
    expect(failed, renderChecks(result)).toEqual([]);
    expect(result.checks.length).toBeGreaterThanOrEqual(18);
  }, 60_000);
});

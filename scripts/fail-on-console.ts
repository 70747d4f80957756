import { afterEach, beforeEach } from 'vitest';

/** The library never calls console; any console call during a test is a failure. */
const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
const originals = new Map<string, (...args: unknown[]) => void>();
const calls: string[] = [];

beforeEach(() => {
  calls.length = 0;
  for (const m of methods) {
    originals.set(m, console[m]);
    console[m] = () => {
      calls.push(m);
    };
  }
});

afterEach(() => {
  for (const m of methods) console[m] = originals.get(m) as (typeof console)[typeof m];
  if (calls.length > 0) throw new Error(`Unexpected console.${calls[0]} call during the test`);
});

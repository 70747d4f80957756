import { describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/adapters/in-memory/in-memory-store.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { BudgetService } from '../../src/ingest/budgets.js';
import { WriteCoalescer } from '../../src/ingest/write-coalescer.js';
import { EventBus } from '../../src/observability/events.js';

/** A write that answers when the test says so. */
function gatedWrites() {
  const calls: { key: string; amount: number; answer: (error?: Error) => void }[] = [];
  const write = (key: string) => (amount: number) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ key, amount, answer: (error) => (error ? reject(error) : resolve()) });
    });
  return { calls, write };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('WriteCoalescer', () => {
  it('sends a write at once, and merges what arrives meanwhile into one write after it', async () => {
    const c = new WriteCoalescer();
    const { calls, write } = gatedWrites();
    const settled: number[] = [];
    const a = c.add('k', 5, write('k')).then(() => settled.push(5));
    const b = c.add('k', 7, write('k')).then(() => settled.push(7));
    const d = c.add('k', 11, write('k')).then(() => settled.push(11));
    await tick();
    expect(calls.map((x) => x.amount)).toEqual([5]);
    calls[0]?.answer();
    await a;
    await tick();
    expect(calls.map((x) => x.amount)).toEqual([5, 18]);
    expect(settled).toEqual([5]);
    calls[1]?.answer();
    await Promise.all([b, d]);
    expect(settled).toEqual([5, 7, 11]);
    // Nothing in flight: the next write goes at once.
    void c.add('k', 1, write('k'));
    expect(calls.map((x) => x.amount)).toEqual([5, 18, 1]);
    calls[2]?.answer();
  });

  it('keeps keys apart, and fails every caller of a failed write (the next write still goes)', async () => {
    const c = new WriteCoalescer();
    const { calls, write } = gatedWrites();
    const first = c.add('a', 1, write('a'));
    const other = c.add('b', 2, write('b'));
    const second = c.add('a', 3, write('a'));
    const third = c.add('a', 4, write('a'));
    expect(calls.map((x) => [x.key, x.amount])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    calls[0]?.answer(new Error('first failed'));
    await expect(first).rejects.toThrow('first failed');
    await tick();
    expect(calls.map((x) => [x.key, x.amount])).toEqual([
      ['a', 1],
      ['b', 2],
      ['a', 7],
    ]);
    calls[2]?.answer(new Error('merged failed'));
    await expect(second).rejects.toThrow('merged failed');
    await expect(third).rejects.toThrow('merged failed');
    calls[1]?.answer();
    await other;
  });
});

describe('BudgetService.charge', () => {
  it('adds every charge to the day and month, merging those made while one is written', async () => {
    const store = createInMemoryStore();
    let writes = 0;
    const chargeTokens = store.budgets.chargeTokens.bind(store.budgets);
    store.budgets.chargeTokens = async (...args) => {
      writes++;
      await tick();
      return chargeTokens(...args);
    };
    const budgets = new BudgetService({
      store: store.budgets,
      clock: { now: () => new Date('2026-09-01T10:00:00Z') },
      config: parseConfig({ storage: 'memory' }).budgets,
      events: new EventBus(),
    });
    await Promise.all([budgets.charge('g', 100), budgets.charge('g', 20), budgets.charge('g', 3)]);
    expect(writes).toBe(2);
    expect(await store.budgets.tokenUsage('g', ['d:2026-09-01', 'm:2026-09'])).toEqual({
      'd:2026-09-01': 123,
      'm:2026-09': 123,
    });
  });
});

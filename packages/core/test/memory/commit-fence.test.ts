import { describe, expect, it } from 'vitest';
import { createInMemoryStore, type MemoryStore } from '../../src/index.js';
import { ALICE, GUILD, harness, op, ops } from './helpers.js';

/**
 * A store whose budget charge takes a while, recording when the charge starts and ends and when
 * the erasure log is read; `transactions` as given.
 */
function recordingStore(
  transactions: 'atomic' | 'ordered',
  duringCharge: () => Promise<void> = async () => {},
) {
  const base = createInMemoryStore();
  const log: string[] = [];
  const wrap = <T extends object>(
    target: T,
    name: string,
    around: (call: () => Promise<unknown>) => Promise<unknown>,
  ) =>
    new Proxy(target, {
      get(t, key) {
        const value = Reflect.get(t, key) as unknown;
        if (typeof value !== 'function') return value;
        const bound = (value as (...args: unknown[]) => unknown).bind(t);
        return key === name
          ? (...args: unknown[]) => around(() => bound(...args) as Promise<unknown>)
          : bound;
      },
    });
  const store: MemoryStore = {
    ...base,
    capabilities: { ...base.capabilities, transactions },
    budgets: wrap(base.budgets, 'chargeTokens', async (call) => {
      log.push('charge started');
      await new Promise((resolve) => setTimeout(resolve, 30));
      await duringCharge();
      const out = await call();
      log.push('charge answered');
      return out;
    }),
    erasures: wrap(base.erasures, 'erasuresSince', (call) => {
      log.push('erasures read');
      return call();
    }),
  };
  return { store, log };
}

async function extractOnce(store: MemoryStore): Promise<void> {
  const h = harness({ budgets: { guildDailyPromptTokens: 1_000_000 } }, { store });
  h.llm.script('extraction', ops(op({ text: 'Alice keeps bees on her roof' })));
  await h.say(ALICE, 'i keep bees on my roof, three hives now');
  await h.memory.flush({ guildId: GUILD });
  const facts = await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE });
  expect(facts.map((f) => f.text)).toEqual(['Alice keeps bees on her roof']);
  await h.memory.close();
}

describe("the commit's erasure check", () => {
  it('is read while the budget charge is written on a store without atomic transactions', async () => {
    const { store, log } = recordingStore('ordered');
    await extractOnce(store);
    const charge = log.indexOf('charge started');
    expect(charge).toBeGreaterThan(0);
    // The fence opened before the model call (read before the charge); the commit's read follows.
    expect(log.slice(charge, log.indexOf('charge answered'))).toContain('erasures read');
  });

  it('is read inside the commit, after the charge, on an atomic store', async () => {
    const { store, log } = recordingStore('atomic');
    await extractOnce(store);
    const charge = log.indexOf('charge started');
    expect(charge).toBeGreaterThan(0);
    expect(log.slice(charge, log.indexOf('charge answered'))).not.toContain('erasures read');
    expect(log.slice(log.indexOf('charge answered'))).toContain('erasures read');
  });

  it('still keeps nothing of a member purged while the charge is written (store without atomic transactions)', async () => {
    let purge = async () => {};
    const { store } = recordingStore('ordered', () => purge());
    const h = harness({ budgets: { guildDailyPromptTokens: 1_000_000 } }, { store });
    purge = async () => {
      purge = async () => {};
      await h.memory.admin.purgeUser({ guildId: GUILD, userId: ALICE, dryRun: false });
    };
    h.llm.script('extraction', ops(op({ text: 'Alice keeps bees on her roof' })));
    await h.say(ALICE, 'i keep bees on my roof, three hives now');
    await h.memory.flush({ guildId: GUILD });
    expect(await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE })).toEqual([]);
    const stored = await store.facts.list({
      guildId: GUILD,
      subjectIds: [ALICE],
      validity: 'any',
      limit: 10,
    });
    expect(stored.items).toEqual([]);
    await h.memory.close();
  });
});

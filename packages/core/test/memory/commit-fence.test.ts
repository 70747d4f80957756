import { describe, expect, it } from 'vitest';
import { createInMemoryStore, ErrorCode, MemoryError, type MemoryStore } from '../../src/index.js';
import { ALICE, CHANNEL, GUILD, harness, op, ops, storedFactsAbout } from './helpers.js';

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
    expect(await storedFactsAbout(store, ALICE)).toEqual([]);
    await h.memory.close();
  });

  it("removes a message's vector again when the message is forgotten while the batch writes it (store without atomic transactions)", async () => {
    const base = createInMemoryStore();
    let beforeMessageVectors = async () => {};
    const store: MemoryStore = {
      ...base,
      capabilities: { ...base.capabilities, transactions: 'ordered' },
      vectors: new Proxy(base.vectors, {
        get(t, key) {
          const value = Reflect.get(t, key) as unknown;
          if (typeof value !== 'function') return value;
          const bound = (value as (...args: unknown[]) => Promise<unknown>).bind(t);
          if (key !== 'upsert') return bound;
          return async (items: readonly { kind: string }[]) => {
            if (items.some((i) => i.kind === 'message')) await beforeMessageVectors();
            return bound(items);
          };
        },
      }),
    };
    const h = harness({ budgets: { guildDailyPromptTokens: 1_000_000 } }, { store });
    const failed: string[] = [];
    h.memory.events.on('ExtractionFailed', (e) => failed.push(e.errorCode));
    h.llm.script('extraction', ops(op({ text: 'Alice keeps bees on her roof', sources: [2] })));
    const forgotten = await h.say(ALICE, 'ok so here is a thing about my weekend plans');
    const kept = await h.say(ALICE, 'i keep bees on my roof, three hives now');
    // The commit has read the erasures already when its message vectors go out.
    beforeMessageVectors = async () => {
      beforeMessageVectors = async () => {};
      await h.memory.forgetMessage({ guildId: GUILD, channelId: CHANNEL, messageId: forgotten });
    };
    await h.memory.flush({ guildId: GUILD });
    // The forgotten message's row is gone when the batch is marked done: not a lost claim.
    expect(failed).toEqual([]);
    expect(await base.queue.counts(GUILD)).toMatchObject({ pending: 0, processed: 1 });
    expect(await base.vectors.count(GUILD, 'message', [kept])).toBe(1);
    expect(await base.vectors.count(GUILD, 'message', [forgotten])).toBe(0);
    expect((await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE })).map((f) => f.text)).toEqual([
      'Alice keeps bees on her roof',
    ]);
    await h.memory.close();
  });

  it('keeps nothing of a member purged during the commit of a batch that then fails (store without atomic transactions)', async () => {
    const base = createInMemoryStore();
    let duringInsert = async () => {};
    const insertDistinct = base.facts.insertDistinct.bind(base.facts);
    base.facts.insertDistinct = async (...args) => {
      await duringInsert();
      return insertDistinct(...args);
    };
    base.budgets.chargeTokens = async () => {
      throw new MemoryError(ErrorCode.STORE_UNAVAILABLE, 'budget write failed');
    };
    const store: MemoryStore = { ...base, capabilities: { ...base.capabilities, transactions: 'ordered' } };
    const h = harness({}, { store });
    const failed: string[] = [];
    h.memory.events.on('ExtractionFailed', (e) => failed.push(e.errorCode));
    duringInsert = async () => {
      duringInsert = async () => {};
      await h.memory.admin.purgeUser({ guildId: GUILD, userId: ALICE, dryRun: false });
    };
    h.llm.script('extraction', ops(op({ text: 'Alice keeps bees on her roof' })));
    await h.say(ALICE, 'i keep bees on my roof, three hives now');
    await h.memory.flush({ guildId: GUILD });
    // The fact went in after the purge, then the charge failed the batch: the purge is re-run.
    expect(failed).toEqual(['STORE_UNAVAILABLE']);
    expect(await storedFactsAbout(base, ALICE)).toEqual([]);
    await h.memory.close();
  });

  it('is read again, for the re-application, while the batch is marked done (store without atomic transactions)', async () => {
    const base = createInMemoryStore();
    const log: string[] = [];
    const complete = base.queue.complete.bind(base.queue);
    base.queue.complete = async (...args) => {
      log.push('complete started');
      await new Promise((resolve) => setTimeout(resolve, 30));
      const out = await complete(...args);
      log.push('complete answered');
      return out;
    };
    const erasuresSince = base.erasures.erasuresSince.bind(base.erasures);
    base.erasures.erasuresSince = (...args) => {
      log.push('erasures read');
      return erasuresSince(...args);
    };
    const ordered: MemoryStore = { ...base, capabilities: { ...base.capabilities, transactions: 'ordered' } };
    await extractOnce(ordered);
    const started = log.indexOf('complete started');
    expect(started).toBeGreaterThan(0);
    expect(log.slice(started, log.indexOf('complete answered'))).toContain('erasures read');
  });
});

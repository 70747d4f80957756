import { describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/adapters/in-memory/in-memory-store.js';
import { ErrorCode, MemoryError, type MemoryStore } from '../../src/index.js';
import type { StoreCapabilities } from '../../src/ports/memory-store.js';
import { interceptStore } from '../../src/testing/intercept-store.js';
import { StoreWaves } from '../../src/testing/store-waves.js';
import { failing, withMethod, withPort } from '../helpers/world.js';
import { ALICE, GUILD, harness, op, ops } from './helpers.js';

const TEXTS = [
  'Alice keeps bees on her roof',
  'Alice plays the cello in a quartet',
  'Alice is training for a marathon in Lisbon',
  'Alice repairs vintage radios',
  'Alice grows chillies on her balcony',
];

/** One batch of Alice's messages extracted into `n` new facts; the flush's store calls counted. */
async function extractInto(n: number, transactions: StoreCapabilities['transactions'] = 'atomic') {
  const inner = createInMemoryStore();
  const counted = new StoreWaves({ ...inner, capabilities: { ...inner.capabilities, transactions } });
  const h = harness({}, { store: counted.store });
  h.llm.script('extraction', ops(...TEXTS.slice(0, n).map((text) => op({ text, sources: [1] }))));
  await h.say(ALICE, 'I keep bees, play the cello, run, fix radios and grow chillies');
  await h.say(ALICE, 'busy week honestly');
  await h.say(ALICE, 'anyway how is everyone');
  const measured = await counted.measure(() => h.memory.flush());
  const facts = await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE });
  await h.memory.close();
  return { ...measured, facts };
}

/** Alice's batch of three messages extracted into one fact on `store`; extraction failures recorded. */
async function extractOneFact(store: MemoryStore) {
  const failed: string[] = [];
  const h = harness({}, { store });
  h.memory.events.on('ExtractionFailed', (e) => failed.push(e.errorCode));
  h.llm.script('extraction', ops(op({ text: TEXTS[0] as string, sources: [1] })));
  await h.say(ALICE, 'I keep bees, play the cello, run, fix radios and grow chillies');
  await h.say(ALICE, 'busy week honestly');
  await h.say(ALICE, 'anyway how is everyone');
  await h.memory.flush();
  return { h, failed };
}

/** Waves from the commit's erasure check through the queue's completion. */
function commitWaves(byWave: readonly (readonly string[])[]): number {
  const charged = byWave.findIndex((w) => w.includes('budgets.chargeTokens'));
  const start = byWave.findIndex((w, i) => i > charged && w.includes('erasures.erasuresSince'));
  const end = byWave.findIndex((w) => w.includes('queue.complete'));
  expect(charged).toBeGreaterThanOrEqual(0);
  expect(start).toBeGreaterThan(charged);
  expect(end).toBeGreaterThan(start);
  return end - start + 1;
}

/**
 * A store that records whether two of its calls were ever in flight together inside a transaction,
 * with the transaction kind it claims.
 */
function overlapProbe(transactions: StoreCapabilities['transactions']) {
  const inner = createInMemoryStore();
  let depth = 0;
  let inFlight = 0;
  let overlaps = 0;
  const capabilities = { ...inner.capabilities, transactions };
  const claimed = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'capabilities') return capabilities;
      if (prop === 'transaction')
        return async <T>(fn: () => Promise<T>) =>
          target.transaction(async () => {
            depth++;
            try {
              return await fn();
            } finally {
              depth--;
            }
          });
      return Reflect.get(target, prop, receiver);
    },
  });
  const store = interceptStore(claimed, (_role, _method, call) => {
    const out = call();
    if (depth === 0 || !(out instanceof Promise)) return out;
    if (++inFlight > 1) overlaps++;
    return out.finally(() => inFlight--);
  });
  return { store, overlaps: () => overlaps };
}

describe('extraction commit store calls', () => {
  it('commits five new facts in as many round trips as one', async () => {
    const one = await extractInto(1);
    const five = await extractInto(5);
    expect(one.facts.map((f) => f.text)).toEqual([TEXTS[0]]);
    expect(five.facts.map((f) => f.text).sort()).toEqual([...TEXTS].sort());
    for (const f of five.facts) expect(f.version).toBe(1);
    // The commit: from its erasure check (after the model's answer was charged) to the queue's
    // completion, the batch's last write.
    expect(commitWaves(five.byWave)).toBe(commitWaves(one.byWave));
    // Erasure check, the insert of the new facts (with its duplicate check), links, vectors,
    // history, message vectors, completion: one at a time, as inside a transaction of this
    // (atomic) store. The message vectors use the commit's erasure check.
    expect(commitWaves(one.byWave)).toBe(7);
    // One insert for the five facts, one history append, the same vector writes as for one fact.
    const calls = (r: typeof five, name: string) => r.byWave.flat().filter((c) => c === name).length;
    for (const name of ['facts.insertDistinct', 'facts.appendHistory']) {
      expect(calls(one, name)).toBe(1);
      expect(calls(five, name)).toBe(1);
    }
    expect(calls(five, 'vectors.upsert')).toBe(calls(one, 'vectors.upsert'));
  });

  it('keeps calls inside a transaction one at a time on a store with atomic transactions', async () => {
    const run = async (transactions: StoreCapabilities['transactions']) => {
      const probe = overlapProbe(transactions);
      const h = harness({}, { store: probe.store });
      h.llm.script('extraction', ops(...TEXTS.slice(0, 3).map((text) => op({ text, sources: [1] }))));
      await h.say(ALICE, 'I keep bees and play the cello and I am training for a marathon');
      await h.say(ALICE, 'busy week honestly');
      await h.say(ALICE, 'anyway how is everyone');
      await h.memory.flush();
      expect(await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE })).toHaveLength(3);
      await h.memory.close();
      return probe.overlaps();
    };
    expect(await run('atomic')).toBe(0);
    // The probe sees overlap where the store allows it (so the zero above is not vacuous).
    expect(await run('ordered')).toBeGreaterThan(0);
  });

  it("writes the reply's charge while reconcile reads memory, before the commit", async () => {
    const { byWave } = await extractInto(3);
    const charged = byWave.findIndex((w) => w.includes('budgets.chargeTokens'));
    expect(byWave[charged]).toContain('facts.findByNormalizedText');
    expect(byWave.findIndex((w) => w.includes('facts.insertDistinct'))).toBeGreaterThan(charged);
  });

  it('fails the batch, writing nothing, when the charge cannot be written', async () => {
    const inner = createInMemoryStore();
    const store = withPort(inner, 'budgets', failing(inner.budgets, 'chargeTokens'));
    const { h, failed } = await extractOneFact(store);
    expect(failed).toEqual(['STORE_UNAVAILABLE']);
    expect(await inner.facts.list({ guildId: GUILD, limit: 10 })).toMatchObject({ items: [] });
    // Still queued, for a retry.
    expect(await inner.queue.counts(GUILD)).toMatchObject({ pending: 3, processed: 0 });
    await h.memory.close();
  });

  it('sends the message vectors with the new facts, the charge beside them, the completion with the insert and the erasure check with reconcile, where transactions are ordered', async () => {
    const atomic = await extractInto(1);
    const ordered = await extractInto(1, 'ordered');
    expect(ordered.facts.map((f) => f.text)).toEqual([TEXTS[0]]);
    const wave = (byWave: readonly (readonly string[])[], call: string) =>
      byWave.findIndex((w) => w.includes(call));
    const { byWave } = ordered;
    // The message vectors (the first vector write: the fact's own follows its insert) go out
    // with the facts' insert, not after it; the charge is not waited for before the insert.
    expect(wave(byWave, 'vectors.upsert')).toBe(wave(byWave, 'facts.insertDistinct'));
    expect(wave(byWave, 'budgets.chargeTokens')).toBeLessThan(wave(byWave, 'facts.insertDistinct'));
    // The completion starts with the insert (it marks nothing before the writes have landed, see
    // below); on an atomic store it is the transaction's last call.
    expect(wave(byWave, 'queue.complete')).toBe(wave(byWave, 'facts.insertDistinct'));
    expect(wave(atomic.byWave, 'queue.complete')).toBeGreaterThan(wave(atomic.byWave, 'facts.appendHistory'));
    // The digest refresh reads once the facts are written (after "done" on an atomic store).
    expect(wave(byWave, 'digests.getDigest')).toBe(wave(byWave, 'facts.appendHistory') + 1);
    expect(wave(atomic.byWave, 'digests.getDigest')).toBeGreaterThan(wave(atomic.byWave, 'queue.complete'));
    // The commit's erasure check goes out with reconcile's first reads (erasures after it are
    // applied again once the batch is done); on an atomic store it is read inside the commit.
    const reconcileStart = wave(byWave, 'facts.findByNormalizedText');
    expect(byWave[reconcileStart]).toContain('erasures.erasuresSince');
    // Reconcile reads the opt-outs with its neighbour searches, not after them.
    const searched = byWave.findIndex((w, i) => i >= reconcileStart && w.includes('vectors.search'));
    expect(byWave[searched]).toContain('consent.optedOutUsers');
    expect(atomic.byWave[wave(atomic.byWave, 'facts.findByNormalizedText')]).not.toContain(
      'erasures.erasuresSince',
    );
    const toDone = (w: readonly (readonly string[])[]) =>
      wave(w, 'queue.complete') - wave(w, 'facts.findByNormalizedText') + 1;
    expect(toDone(byWave)).toBeLessThan(toDone(atomic.byWave));
  });

  it('marks the batch done only after its writes and charges landed, where transactions are ordered', async () => {
    const inner = createInMemoryStore();
    const log: string[] = [];
    const logged = <T>(name: string, out: Promise<T>) =>
      out.then((v) => {
        log.push(`${name}:end`);
        return v;
      });
    const ordered = { ...inner, capabilities: { ...inner.capabilities, transactions: 'ordered' as const } };
    const queue = inner.queue;
    const complete: typeof queue.complete = (...args) => {
      log.push('complete:called');
      void args[4]?.after?.then(() => log.push('after:resolved'));
      return logged('complete', queue.complete(...args));
    };
    const store = interceptStore(
      withPort(ordered, 'queue', withMethod(queue, 'complete', complete)),
      (role, method, call) => {
        const out = call();
        const name = `${role}.${method}`;
        return ['facts.appendHistory', 'budgets.chargeTokens'].includes(name) && out instanceof Promise
          ? logged(name, out)
          : out;
      },
    );
    const { h, failed } = await extractOneFact(store);
    expect(failed).toEqual([]);
    const at = (entry: string) => log.indexOf(entry);
    expect(at('complete:called')).toBeGreaterThanOrEqual(0);
    // Called before the history append landed, released only after it and the charge.
    expect(at('complete:called')).toBeLessThan(at('facts.appendHistory:end'));
    expect(at('after:resolved')).toBeGreaterThan(at('facts.appendHistory:end'));
    expect(at('after:resolved')).toBeGreaterThan(log.lastIndexOf('budgets.chargeTokens:end'));
    expect(at('complete:end')).toBeGreaterThan(at('after:resolved'));
    expect(await inner.queue.counts(GUILD)).toMatchObject({ pending: 0, processed: 3 });
    await h.memory.close();
  });

  it('leaves the batch queued when a fact write fails where transactions are ordered', async () => {
    const inner = createInMemoryStore();
    const ordered = { ...inner, capabilities: { ...inner.capabilities, transactions: 'ordered' as const } };
    const store = withPort(
      ordered,
      'facts',
      failing(
        inner.facts,
        'appendHistory',
        new MemoryError(ErrorCode.STORE_UNAVAILABLE, 'history write failed'),
      ),
    );
    const { h, failed } = await extractOneFact(store);
    expect(failed).toEqual(['STORE_UNAVAILABLE']);
    // The completion had started beside the writes: it marked nothing.
    expect(await inner.queue.counts(GUILD)).toMatchObject({ pending: 3, processed: 0 });
    await h.memory.close();
  });

  it('leaves the batch queued when the charge fails where transactions are ordered', async () => {
    const inner = createInMemoryStore();
    let fail = true;
    const chargeTokens = inner.budgets.chargeTokens.bind(inner.budgets);
    inner.budgets.chargeTokens = async (...args) => {
      if (fail) throw new MemoryError(ErrorCode.STORE_UNAVAILABLE, 'budget write failed');
      return chargeTokens(...args);
    };
    const store = { ...inner, capabilities: { ...inner.capabilities, transactions: 'ordered' as const } };
    const { h, failed } = await extractOneFact(store);
    expect(failed).toEqual(['STORE_UNAVAILABLE']);
    // Not marked done: the batch is retried, and its fact (already written) is found, not doubled.
    expect(await inner.queue.counts(GUILD)).toMatchObject({ pending: 3, processed: 0 });
    fail = false;
    h.llm.script('extraction', ops(op({ text: TEXTS[0] as string, sources: [1] })));
    h.clock.advanceSeconds(3600);
    await h.memory.flush({ guildId: GUILD });
    expect(await inner.queue.counts(GUILD)).toMatchObject({ pending: 0, processed: 3 });
    const facts = await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE });
    expect(facts.map((f) => f.text)).toEqual([TEXTS[0]]);
    await h.memory.close();
  });

  /** Reconcile's store calls when Alice's facts `stored` exist and `added` are extracted. */
  async function reconcileCalls(stored: readonly string[], added: readonly string[]) {
    const counted = new StoreWaves(createInMemoryStore());
    const h = harness({}, { store: counted.store });
    // Replies in order (the last one repeats): the stored facts, then the added ones.
    h.llm.script(
      'extraction',
      ...[stored, added].map((texts) => ops(...texts.map((text) => op({ text, sources: [1] })))),
    );
    const extract = async (texts: readonly string[], first: string) => {
      await h.say(ALICE, first);
      await h.say(ALICE, `busy week honestly, ${texts.length} things`);
      await h.say(ALICE, `anyway how is everyone ${texts.length}`);
    };
    await extract(stored, 'I keep bees, play the cello and train for a marathon');
    await h.memory.flush();
    await extract(added, 'I also fix vintage radios and grow chillies on the balcony');
    const { byWave } = await counted.measure(() => h.memory.flush());
    await h.memory.close();
    // Reconcile: from the candidates' duplicate checks on (the batch's context read facts before).
    const reconcile = byWave.slice(byWave.findIndex((w) => w.includes('facts.findByNormalizedText'))).flat();
    const first = byWave.findIndex((w) => w.includes('facts.findByNormalizedText'));
    return {
      calls: (name: string) => reconcile.filter((c) => c === name).length,
      firstWave: byWave[first] ?? [],
    };
  }

  it("reads the neighbours that a batch's candidates share once, and none the keyword search returned", async () => {
    // The stored facts share no word with the new ones: each candidate finds them by vector only.
    const apart = await reconcileCalls(
      ['Keeps bees on the roof', 'Plays the cello in a quartet', 'Is training for a marathon in Lisbon'],
      TEXTS.slice(3),
    );
    // Both new candidates look for neighbours (one vector search each) and find the same three
    // stored facts: one read of them.
    expect(apart.calls('facts.findByNormalizedText')).toBe(2);
    expect(apart.calls('vectors.search')).toBe(2);
    expect(apart.calls('facts.get')).toBe(1);
    // The neighbours are searched with the duplicate checks, not after them.
    expect(apart.firstWave).toContain('vectors.search');
    // Sharing a word ("Alice"), the same neighbours also come back from the keyword search, with
    // their facts: nothing is read by id (a round trip less on a remote store).
    const shared = await reconcileCalls(TEXTS.slice(0, 3), TEXTS.slice(3));
    expect(shared.calls('vectors.search')).toBe(2);
    expect(shared.calls('facts.searchText')).toBe(2);
    expect(shared.calls('facts.get')).toBe(0);
  });

  it('reinforces several facts together where transactions are ordered, one at a time where atomic', async () => {
    const reinforceTwice = async (store: ReturnType<typeof createInMemoryStore>) => {
      const h = harness({}, { store });
      const extract = async () => {
        h.llm.script('extraction', ops(...TEXTS.slice(0, 3).map((text) => op({ text, sources: [1] }))));
        await h.say(ALICE, 'I keep bees and play the cello and I am training for a marathon');
        await h.say(ALICE, 'busy week honestly');
        await h.say(ALICE, 'anyway how is everyone');
      };
      await extract();
      await h.memory.flush();
      await extract();
      return h;
    };
    const inner = createInMemoryStore();
    const counted = new StoreWaves({
      ...inner,
      capabilities: { ...inner.capabilities, transactions: 'ordered' },
    });
    const h = await reinforceTwice(counted.store);
    const { byWave } = await counted.measure(() => h.memory.flush());
    const facts = await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE });
    expect(facts.map((f) => [f.text, f.occurrences]).sort()).toEqual(
      [...TEXTS.slice(0, 3)].sort().map((t) => [t, 2]),
    );
    // The three reinforcements' updates go out in one wave, their history appends in the next.
    const updates = byWave.map((w) => w.filter((c) => c === 'facts.update').length).filter((n) => n > 0);
    expect(updates).toEqual([3]);
    await h.memory.close();

    const probe = overlapProbe('atomic');
    const atomic = await reinforceTwice(probe.store);
    await atomic.memory.flush();
    const again = await atomic.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE });
    expect(again.map((f) => f.occurrences)).toEqual([2, 2, 2]);
    expect(probe.overlaps()).toBe(0);
    await atomic.memory.close();
  });

  it("fails the batch, writing nothing, when reconcile's charge cannot be written", async () => {
    const inner = createInMemoryStore();
    let charges = 0;
    const chargeTokens = inner.budgets.chargeTokens.bind(inner.budgets);
    // The first batch's reply and the second's are charged; the third charge is reconcile's.
    inner.budgets.chargeTokens = async (...args) => {
      if (++charges === 3) throw new MemoryError(ErrorCode.STORE_UNAVAILABLE, 'budget write failed');
      return chargeTokens(...args);
    };
    const failed: string[] = [];
    const h = harness({ extraction: { collisionFloor: 0.2 } }, { store: inner });
    h.memory.events.on('ExtractionFailed', (e) => failed.push(e.errorCode));
    h.llm.script(
      'extraction',
      ops(op({ text: 'Alice works as a nurse at Mercy Hospital', category: 'professional' })),
      ops(op({ text: 'Alice was promoted at Mercy Hospital', category: 'professional' })),
    );
    h.llm.script(
      'reconcile',
      JSON.stringify({
        decisions: [
          { candidateIndex: 0, kind: 'UPDATE', targetId: '0', text: 'Alice is a charge nurse', reason: 'x' },
        ],
      }),
    );
    await h.say(ALICE, 'another long night shift as a nurse at mercy hospital');
    await h.memory.flush();
    await h.say(ALICE, 'got promoted today at mercy hospital!! so happy about it');
    await h.memory.flush();
    expect(h.llm.callsFor('reconcile')).toHaveLength(1);
    expect(charges).toBe(3);
    expect(failed).toEqual(['STORE_UNAVAILABLE']);
    const facts = await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE });
    expect(facts.map((f) => f.text)).toEqual(['Alice works as a nurse at Mercy Hospital']);
    await h.memory.close();
  });
});

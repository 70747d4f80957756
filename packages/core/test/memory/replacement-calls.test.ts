import { describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/adapters/in-memory/in-memory-store.js';
import type { ReconcileInput } from '../../src/extraction/task-contracts.js';
import type { ChatRequest } from '../../src/ports/chat-llm.js';
import { StoreWaves } from '../../src/testing/store-waves.js';
import { ALICE, GUILD, harness, op, ops } from './helpers.js';

/** Stored facts and what later corrects each (an update, then a retraction, then an update). */
const STORED = [
  'Alice works as a nurse at Mercy Hospital',
  'Alice cycles to work every day in Lisbon',
  'Alice plays cello in a string quartet',
];
const LATER = [
  'Alice works as a charge nurse at Mercy Hospital',
  'Alice no longer cycles to work in Lisbon',
  'Alice plays cello in a string orchestra',
];

const words = (t: string) => new Set(t.toLowerCase().split(/\W+/));
const overlap = (a: string, b: string) => [...words(a)].filter((w) => words(b).has(w)).length;

/** Reconcile's answer: each candidate replaces the stored fact it shares most words with. */
function replaceNearest(request: ChatRequest): string {
  const { collisions } = (request.task as { input: ReconcileInput }).input;
  return JSON.stringify({
    decisions: collisions.map((c) => {
      const target = [...c.existing].sort((x, y) => overlap(c.text, y.text) - overlap(c.text, x.text))[0];
      const retract = c.text.includes('no longer');
      return {
        candidateIndex: c.candidateIndex,
        kind: retract ? 'INVALIDATE' : 'UPDATE',
        targetId: target?.id ?? null,
        text: retract ? null : c.text,
        reason: 'corrected',
      };
    }),
  });
}

/** Alice's three facts, then a batch that corrects `n` of them; the second flush's store calls counted. */
async function correct(n: number) {
  const inner = createInMemoryStore();
  const counted = new StoreWaves({
    ...inner,
    capabilities: { ...inner.capabilities, transactions: 'ordered' },
  });
  const h = harness({ extraction: { collisionFloor: 0.2 } }, { store: counted.store });
  h.llm.script(
    'extraction',
    ops(...STORED.map((text) => op({ text }))),
    ops(...LATER.slice(0, n).map((text) => op({ text }))),
  );
  h.llm.script('reconcile', replaceNearest);
  for (const line of ['nurse, cyclist and cellist here', 'busy week', 'how is everyone'])
    await h.say(ALICE, line);
  await h.memory.flush({ guildId: GUILD });
  for (const line of ['some news about work and music', 'long week', 'anyway']) await h.say(ALICE, line);
  const measured = await counted.measure(() => h.memory.flush({ guildId: GUILD }));
  const all = await inner.facts.list({ guildId: GUILD, limit: 50, validity: 'any' });
  await h.memory.close();
  return { ...measured, facts: all.items };
}

const waveOf = (byWave: readonly (readonly string[])[], call: string) =>
  byWave.findIndex((w) => w.includes(call));
const lastWaveOf = (byWave: readonly (readonly string[])[], call: string) =>
  byWave.reduce((last, w, i) => (w.includes(call) ? i : last), -1);

describe('supersessions and invalidations in an extraction commit', () => {
  it('stores every replacement in one insert and ends the replaced facts together', async () => {
    const one = await correct(1);
    const three = await correct(3);
    const active = (r: typeof three) => r.facts.filter((f) => f.validUntil === null).map((f) => f.text);
    expect(active(three).sort()).toEqual([LATER[0], LATER[1], LATER[2]].sort());
    const ended = three.facts.filter((f) => f.validUntil !== null);
    expect(ended.map((f) => f.text).sort()).toEqual([...STORED].sort());
    for (const old of ended) {
      const replacement = three.facts.find((f) => f.id === old.supersededById);
      expect(replacement?.supersedesId).toBe(old.id);
    }
    expect(active(one).sort()).toEqual([LATER[0], STORED[1], STORED[2]].sort());
    // One insert for the three replacements; the three endings in one wave.
    const calls = (r: typeof three, name: string) => r.byWave.flat().filter((c) => c === name).length;
    expect(calls(three, 'facts.insert')).toBe(1);
    expect(three.byWave.filter((w) => w.includes('facts.update'))).toHaveLength(1);
    expect(calls(three, 'facts.update')).toBe(3);
    // From the replacements' insert to the last ending's history: the same waves for three as for one.
    const span = (r: typeof three) =>
      lastWaveOf(r.byWave, 'facts.appendHistory') - waveOf(r.byWave, 'facts.insert');
    expect(span(three)).toBe(span(one));
    // An ending goes out with its vector's and its relations' changes; its history entry follows it.
    const ending = waveOf(three.byWave, 'facts.update');
    expect(three.byWave[ending]).toEqual(expect.arrayContaining(['vectors.setActive', 'graph.dropEvidence']));
    expect(three.byWave[ending + 1]).toContain('facts.appendHistory');
  });
});

import { describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/adapters/in-memory/in-memory-store.js';
import type { GraphWrites } from '../../src/model/graph.js';
import type { LogEvent } from '../../src/ports/logger.js';
import type { StoreCapabilities } from '../../src/ports/memory-store.js';
import { StoreWaves } from '../../src/testing/store-waves.js';
import { ALICE, BOB, GUILD, harness, op, ops } from './helpers.js';

const TOPICS = ['chess', 'sourdough', 'cycling', 'jazz', 'pottery'];

/**
 * One batch of Alice's messages extracted into `n` facts, each naming `perFact` entities, Bob (a
 * member, by his name) and a relation from Alice to its first entity; the flush's store calls counted.
 */
async function extractNamed(n: number, perFact: number, transactions: StoreCapabilities['transactions']) {
  const inner = createInMemoryStore();
  const prepared: GraphWrites[] = [];
  const applied: GraphWrites[] = [];
  const { graph: g } = inner;
  const prepare = g.prepareGraphWrites.bind(g);
  const apply = g.applyGraphWrites.bind(g);
  g.prepareGraphWrites = (w) => {
    prepared.push(w);
    return prepare(w);
  };
  g.applyGraphWrites = (w) => {
    applied.push(w);
    return apply(w);
  };
  const counted = new StoreWaves({ ...inner, capabilities: { ...inner.capabilities, transactions } });
  const h = harness({}, { store: counted.store });
  const operations = TOPICS.slice(0, n).map((topic, i) => {
    const names = Array.from({ length: perFact }, (_, k) => `${topic} ${['club', 'night', 'gear'][k]}`);
    return {
      ...op({ text: `Alice goes to ${names.join(' and ')} with Bob`, sources: [1] }),
      entities: [...names.map((name) => ({ name, kind: 'activity' })), { name: 'Bob', kind: 'person' }],
      relations: [
        { verb: 'attends', fromToken: 'p0', toToken: null, fromEntity: null, toEntity: names[0] as string },
        ...(i === 0
          ? [
              {
                verb: 'attends',
                fromToken: 'p0',
                toToken: null,
                fromEntity: null,
                toEntity: names[0] as string,
              },
            ]
          : []),
      ],
    };
  });
  h.llm.script('extraction', ops(...operations));
  await h.say(BOB, 'hi all');
  await h.say(ALICE, 'I do all kinds of things with Bob');
  await h.say(ALICE, 'busy week honestly');
  await h.say(ALICE, 'anyway how is everyone');
  const measured = await counted.measure(() => h.memory.flush({ guildId: GUILD }));
  const graph = {
    entities: await inner.graph.getEntities(
      GUILD,
      TOPICS.flatMap((t) => [`${t}-club`, `${t}-night`, `${t}-gear`]),
    ),
    relations: await inner.graph.relationsTouching(GUILD, [{ type: 'user', id: ALICE }]),
    facts: await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE }),
  };
  await h.memory.close();
  return { ...measured, graph, prepared, applied };
}

const count = (byWave: readonly (readonly string[])[], call: string) =>
  byWave.flat().filter((c) => c === call).length;
const wave = (byWave: readonly (readonly string[])[], call: string) =>
  byWave.findIndex((w) => w.includes(call));

describe('the graph writes of an extraction commit', () => {
  it('writes the entities, relations and links of every new fact in one store call', async () => {
    const one = await extractNamed(1, 1, 'ordered');
    const many = await extractNamed(5, 3, 'ordered');
    expect(many.graph.facts).toHaveLength(5);
    expect(many.graph.entities).toHaveLength(15);
    for (const e of many.graph.entities) expect(e.factCount).toBe(1);
    // Bob is a member: his name becomes a link to him, not an entity.
    expect(many.graph.entities.map((e) => e.slug)).not.toContain('bob');
    expect(many.graph.relations).toHaveLength(5);
    expect(many.graph.relations.find((r) => r.dstId === 'chess-club')?.occurrences).toBe(2);
    for (const r of [one, many]) {
      expect(count(r.byWave, 'graph.applyGraphWrites')).toBe(1);
      for (const single of [
        'graph.upsertEntity',
        'graph.upsertRelation',
        'graph.bumpEntityFacts',
        'graph.addLinks',
      ])
        expect(count(r.byWave, single)).toBe(0);
    }
    // From reconcile's first reads to the graph writes: the same waves for 15 entities as for 1.
    const span = (r: typeof one) =>
      wave(r.byWave, 'graph.applyGraphWrites') - wave(r.byWave, 'facts.findByNormalizedText');
    expect(span(many)).toBe(span(one));
    expect(span(one)).toBe(2);
  });

  it('looks the names up all at once, with reconcile’s first reads where transactions are ordered', async () => {
    const ordered = await extractNamed(3, 3, 'ordered');
    const lookups = wave(ordered.byWave, 'aliases.find');
    // Every name of every candidate in one wave, the one reconcile starts reading memory in.
    expect(ordered.byWave.filter((w) => w.includes('aliases.find'))).toHaveLength(1);
    expect(ordered.byWave[lookups]).toContain('facts.findByNormalizedText');
    // Nine topic names and Bob's, each looked up once.
    expect(ordered.byWave[lookups]?.filter((c) => c === 'aliases.find')).toHaveLength(10);
    // An atomic store looks them up inside the commit, after reconcile: one at a time there.
    const atomic = await extractNamed(3, 3, 'atomic');
    expect(wave(atomic.byWave, 'aliases.find')).toBeGreaterThan(
      wave(atomic.byWave, 'facts.findByNormalizedText'),
    );
    expect(atomic.graph.entities).toHaveLength(9);
    expect(atomic.graph).toEqual({ ...ordered.graph, facts: atomic.graph.facts });
  });

  it('lets the store prepare the graphs beside the insert where transactions are ordered', async () => {
    const ordered = await extractNamed(3, 3, 'ordered');
    // Once, in the wave of the insert (its duplicate check), with what is then applied.
    expect(count(ordered.byWave, 'graph.prepareGraphWrites')).toBe(1);
    expect(wave(ordered.byWave, 'graph.prepareGraphWrites')).toBe(
      wave(ordered.byWave, 'facts.insertDistinct'),
    );
    expect(wave(ordered.byWave, 'graph.applyGraphWrites')).toBeGreaterThan(
      wave(ordered.byWave, 'facts.insertDistinct'),
    );
    expect(ordered.prepared).toEqual(ordered.applied);
    expect(ordered.applied[0]?.entities.map((e) => e.slug)).toContain('chess-club');
    // An atomic store is not asked (its commit is one transaction), and stores the same graph.
    const atomic = await extractNamed(3, 3, 'atomic');
    expect(count(atomic.byWave, 'graph.prepareGraphWrites')).toBe(0);
    expect(atomic.prepared).toEqual([]);
    expect(atomic.graph).toEqual({ ...ordered.graph, facts: atomic.graph.facts });
  });

  it('commits as if nothing was prepared when the preparation fails, and says so in a warning', async () => {
    const inner = createInMemoryStore();
    const store = { ...inner, capabilities: { ...inner.capabilities, transactions: 'ordered' as const } };
    let settled = false;
    inner.graph.prepareGraphWrites = async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      settled = true;
      throw new Error('preparation failed');
    };
    const logged: LogEvent[] = [];
    const h = harness({}, { store, logger: (e) => logged.push(e) });
    h.llm.script(
      'extraction',
      ops({
        ...op({ text: 'Alice goes to chess club with Bob', sources: [1] }),
        entities: [{ name: 'chess club', kind: 'activity' }],
        relations: [],
      }),
    );
    await h.say(BOB, 'hi all');
    await h.say(ALICE, 'I do all kinds of things with Bob');
    await h.say(ALICE, 'busy week honestly');
    await h.say(ALICE, 'anyway how is everyone');
    await h.memory.flush({ guildId: GUILD });
    // The commit waited for it (nothing of it is left running) and stored everything anyway.
    expect(settled).toBe(true);
    expect(await inner.graph.getEntities(GUILD, ['chess-club'])).toHaveLength(1);
    expect(await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE })).toHaveLength(1);
    const warning = logged.find((e) => e.event === 'ingest.graph_prepare_failed');
    expect(warning).toMatchObject({ level: 'warn', data: { guildId: GUILD } });
    expect(JSON.stringify(warning?.data)).not.toContain('chess');
    await h.memory.close();
  });
});

import type { EntityUpsert, GraphWrites } from '@permafrost/core/store';
import { G1, makeFact, makeLink, T0 } from '@permafrost/store-conformance';
import { createMongoStore } from '@permafrost/store-mongo';
import type { CommandStartedEvent, CommandSucceededEvent, MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { mongoSelected, scratchDatabase } from './backend-selection.js';

/** The graph writes of `n` new facts, each naming two entities (one shared by all) and an edge. */
function writesFor(n: number): GraphWrites {
  const guildId = G1;
  const facts = Array.from({ length: n }, (_, i) =>
    makeFact({ guildId, text: `fact ${i} about hobby ${i}` }),
  );
  const entity = (slug: string): EntityUpsert => ({
    guildId,
    slug,
    name: slug,
    kind: 'activity',
    aliases: [slug, `${slug} club`],
    at: T0,
    factDelta: 1,
  });
  return {
    entities: facts.flatMap((_, i) => [entity(`hobby-${i}`), entity('shared')]),
    relations: facts.map((f, i) => ({
      guildId,
      src: { type: 'user' as const, id: 'u1' },
      dst: { type: 'entity' as const, id: `hobby-${i}` },
      verb: 'enjoys',
      polarity: 'positive' as const,
      confidence: 0.8,
      evidenceFactId: f.id,
      at: T0,
    })),
    links: facts.flatMap((f, i) => [
      makeLink(f),
      makeLink(f, { nodeType: 'entity', nodeId: `hobby-${i}`, kind: 'about_entity' }),
      makeLink(f, { nodeType: 'entity', nodeId: 'shared', kind: 'about_entity' }),
    ]),
  };
}

/**
 * The commands `run` sends, in the order they start (`command collection`); with `answers`, each
 * answer too, as `answered command collection`, where it comes.
 */
async function commandsOf(client: MongoClient, run: () => Promise<void>, answers = false): Promise<string[]> {
  const sent: string[] = [];
  const names = new Map<number, string>();
  const started = (e: CommandStartedEvent) => {
    const name = `${e.commandName} ${String(e.command[e.commandName])}`;
    names.set(e.requestId, name);
    sent.push(name);
  };
  const succeeded = (e: CommandSucceededEvent) => {
    const name = names.get(e.requestId);
    if (answers && name) sent.push(`answered ${name}`);
  };
  client.on('commandStarted', started);
  client.on('commandSucceeded', succeeded);
  try {
    await run();
  } finally {
    client.off('commandStarted', started);
    client.off('commandSucceeded', succeeded);
  }
  return sent;
}

describe.runIf(mongoSelected)('mongo store graph writes', () => {
  const mongo = scratchDatabase('pf_graph_writes', { monitorCommands: true });

  it('writes the graph of many new facts in as many round trips as the graph of one', async () => {
    const { client, db } = mongo;
    for (const n of [1, 6]) {
      const store = createMongoStore({ client, dbName: `${db}_${n}` });
      await store.setup();
      const writes = writesFor(n);
      const sent = await commandsOf(client, () => store.graph.applyGraphWrites(writes));
      // Every document is read at once, before anything is written; then one insert each: the
      // alias index, the entities, the relations beside the links (version-token deletes, which
      // nothing waits for, aside).
      const firstWrite = sent.findIndex((c) => !c.startsWith('find '));
      expect(sent.slice(firstWrite).filter((c) => c.startsWith('find '))).toEqual([]);
      expect(new Set(sent.slice(0, firstWrite))).toEqual(
        new Set(['find entity_aliases', 'find entities', 'find relations']),
      );
      const writesSent = sent.slice(firstWrite).filter((c) => c !== 'delete version_tokens');
      expect(writesSent.slice(0, 2)).toEqual(['insert entity_aliases', 'insert entities']);
      expect(writesSent.slice(2).sort()).toEqual(['insert links', 'insert relations']);
      const entities = await store.graph.getEntities(G1, ['shared', 'hobby-0', `hobby-${n - 1}`]);
      expect(entities.find((e) => e.slug === 'shared')?.factCount).toBe(n);
      expect(entities.find((e) => e.slug === `hobby-${n - 1}`)?.aliases).toEqual([
        `hobby-${n - 1}`,
        `hobby-${n - 1} club`,
      ]);
      expect(await store.graph.findEntitiesByAlias(G1, ['shared club'])).toEqual([
        { alias: 'shared club', slug: 'shared' },
      ]);
      expect(await store.graph.relationsTouching(G1, [{ type: 'user', id: 'u1' }])).toHaveLength(n);
      await store.close();
    }
  });

  it('writes no alias, reads nothing again and writes the edges with the entities for entities named before', async () => {
    const { client, db } = mongo;
    const store = createMongoStore({ client, dbName: `${db}_again` });
    await store.setup();
    const aliasReads = (sent: string[]) => sent.filter((c) => c === 'find entity_aliases').length;
    const first = await commandsOf(client, () => store.graph.applyGraphWrites(writesFor(2)), true);
    const sent = await commandsOf(client, () => store.graph.applyGraphWrites(writesFor(2)), true);
    // The alias documents are read once, with the entities (as the first time), and already name
    // them: neither written nor read again.
    expect(sent.filter((c) => /^(insert|update) entity_aliases$/.test(c))).toEqual([]);
    expect(aliasReads(sent)).toBe(aliasReads(first));
    const firstWrite = sent.findIndex((c) => !c.startsWith('find ') && !c.startsWith('answered '));
    expect(sent.slice(firstWrite).filter((c) => c.startsWith('find '))).toEqual([]);
    // Every entity they name is stored: the links (and relations) go out before the entities'
    // write is answered. The first time, the entities were new: the links waited for them.
    const before = (log: string[], a: string, b: string) => log.indexOf(a) < log.indexOf(b);
    expect(before(sent, 'insert links', 'answered update entities')).toBe(true);
    expect(before(first, 'answered insert entities', 'insert links')).toBe(true);
    const [shared] = await store.graph.getEntities(G1, ['shared']);
    expect(shared?.factCount).toBe(4);
    const edges = await store.graph.relationsTouching(G1, [{ type: 'user', id: 'u1' }]);
    expect(edges.map((r) => r.occurrences)).toEqual([2, 2]);
    await store.close();
  });

  it('reads and indexes while the facts are inserted when prepared: the writes then start with the entities', async () => {
    const { client, db } = mongo;
    const store = createMongoStore({ client, dbName: `${db}_prepared` });
    await store.setup();
    const writes = writesFor(3);
    // A preparation reads every document, then writes the alias index from that read.
    const prepared = await commandsOf(client, () => store.graph.prepareGraphWrites(writes));
    const preparedWrites = prepared.filter((c) => !c.startsWith('find ') && !c.endsWith(' version_tokens'));
    expect(preparedWrites).toEqual(['insert entity_aliases']);
    expect(
      prepared.slice(prepared.indexOf('insert entity_aliases')).filter((c) => c.startsWith('find ')),
    ).toEqual([]);
    expect(new Set(prepared.filter((c) => c.startsWith('find ')))).toEqual(
      new Set(['find entity_aliases', 'find entities', 'find relations']),
    );
    // Nothing is visible yet: the index entries name entities that do not exist.
    expect(await store.graph.findEntitiesByAlias(G1, ['shared', 'hobby-0 club'])).toEqual([]);
    const sent = await commandsOf(client, () => store.graph.applyGraphWrites(writes));
    const written = sent.filter((c) => !c.endsWith(' version_tokens'));
    // No read, no alias write: the entities, then the relations beside the links.
    expect(written[0]).toBe('insert entities');
    expect(written.slice(1).sort()).toEqual(['insert links', 'insert relations']);
    const [shared] = await store.graph.getEntities(G1, ['shared']);
    expect(shared?.factCount).toBe(3);
    expect(await store.graph.findEntitiesByAlias(G1, ['shared club'])).toEqual([
      { alias: 'shared club', slug: 'shared' },
    ]);
    // A preparation is used once: the same writes again read what they touch.
    const again = await commandsOf(client, () => store.graph.applyGraphWrites(writes));
    expect(again).toContain('find entities');
    expect((await store.graph.getEntities(G1, ['shared']))[0]?.factCount).toBe(6);
    await store.close();
  });

  it('counts every fact when two processes write the same new entity at once', async () => {
    const { client, db } = mongo;
    const a = createMongoStore({ client, dbName: `${db}_race` });
    const b = createMongoStore({ client, dbName: `${db}_race` });
    await a.setup();
    await b.setup();
    const upsert = (aliases: string[]): GraphWrites => ({
      entities: [
        { guildId: G1, slug: 'chess', name: 'Chess', kind: 'activity', aliases, at: T0, factDelta: 1 },
      ],
      relations: [],
      links: [],
    });
    // Both read the entity and its aliases as absent; the insert one of them loses is retried
    // from a fresh read, and merged.
    await Promise.all([
      a.graph.applyGraphWrites(upsert(['chess', 'chess club'])),
      b.graph.applyGraphWrites(upsert(['chess', 'chess night'])),
    ]);
    const [chess] = await a.graph.getEntities(G1, ['chess']);
    expect(chess?.factCount).toBe(2);
    expect([...(chess?.aliases ?? [])].sort()).toEqual(['chess', 'chess club', 'chess night']);
    expect((await a.graph.findEntitiesByAlias(G1, ['chess club', 'chess night'])).map((x) => x.slug)).toEqual(
      ['chess', 'chess'],
    );
    await a.close();
    await b.close();
  });
});

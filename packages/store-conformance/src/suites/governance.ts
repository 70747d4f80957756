import type { MemoryStore } from '@permafrost/core';
import { indexTerms } from '@permafrost/core/store';
import { describe, expect, it } from 'vitest';
import {
  at,
  type ConformanceOptions,
  G1,
  G2,
  makeFact,
  makeHistory,
  makeLink,
  makeMessage,
  unitVector,
  vectorItem,
  withStore,
} from '../fixtures.js';

/** A small guild: bob (subject), alice (speaker of a third-party fact about bob), carol (bystander). */
async function seedPurgeScene(s: MemoryStore) {
  const bobFact = makeFact({ subjectId: 'bob', text: 'bob collects zanzibarian stamps' });
  const aboutBobByAlice = makeFact({
    subjectId: 'bob',
    text: 'bob was called a hacker by alice',
    attribution: { type: 'third_party', speakerId: 'alice', speakerName: 'Alice', actorId: null },
  });
  const aliceSaysCarol = makeFact({
    subjectId: 'carol',
    text: 'carol plays the xylotrumpet',
    attribution: { type: 'third_party', speakerId: 'alice', speakerName: 'Alice', actorId: null },
  });
  const carolFact = makeFact({
    subjectId: 'carol',
    text: 'carol bakes sourdough',
    relatedUserIds: ['alice'],
    sources: [
      {
        messageId: 'ma',
        channelId: 'c1',
        authorId: 'alice',
        authorName: 'Alice',
        snippet: 'alice quoted words',
        url: '',
        role: 'supporting',
        createdAt: at(1),
      },
      {
        messageId: 'mc',
        channelId: 'c1',
        authorId: 'carol',
        authorName: 'Carol',
        snippet: 'carol own words',
        url: '',
        role: 'primary',
        createdAt: at(2),
      },
    ],
  });
  const otherGuild = makeFact({ guildId: G2, subjectId: 'alice', text: 'alice in another guild' });
  await s.facts.insert([bobFact, aboutBobByAlice, aliceSaysCarol, carolFact, otherGuild]);
  await s.facts.appendHistory([
    makeHistory(aboutBobByAlice, { previousText: 'alice history text' }),
    makeHistory(carolFact),
  ]);
  await s.graph.addLinks([
    makeLink(aboutBobByAlice),
    makeLink(aboutBobByAlice, { nodeId: 'alice', kind: 'speaker_of' }),
    makeLink(carolFact),
    makeLink(carolFact, { nodeId: 'alice', kind: 'mentioned_with' }),
  ]);
  await s.graph.upsertRelation({
    guildId: G1,
    src: { type: 'user', id: 'alice' },
    dst: { type: 'user', id: 'bob' },
    verb: 'called_out',
    polarity: 'negative',
    confidence: 0.9,
    evidenceFactId: aboutBobByAlice.id,
    at: at(0),
  });
  await s.graph.upsertRelation({
    guildId: G1,
    src: { type: 'user', id: 'carol' },
    dst: { type: 'entity', id: 'xylotrumpet' },
    verb: 'plays',
    polarity: 'neutral',
    confidence: 0.9,
    evidenceFactId: aliceSaysCarol.id,
    at: at(0),
  });
  await s.graph.upsertRelation({
    guildId: G1,
    src: { type: 'user', id: 'carol' },
    dst: { type: 'entity', id: 'sourdough' },
    verb: 'likes',
    polarity: 'positive',
    confidence: 0.9,
    evidenceFactId: carolFact.id,
    at: at(0),
  });
  await s.graph.upsertEntity({
    guildId: G1,
    slug: 'ali',
    name: 'Ali',
    kind: 'person',
    aliases: ['ali'],
    at: at(0),
  });
  await s.graph.linkEntityToUser(G1, 'ali', 'alice');
  // An entity only Alice's statement mentions (purged with it), and one Carol's own fact mentions (kept).
  for (const [slug, name] of [
    ['xylotrumpet', 'Xylotrumpet'],
    ['sourdough', 'Sourdough'],
  ] as const) {
    await s.graph.upsertEntity({ guildId: G1, slug, name, kind: 'concept', aliases: [slug], at: at(0) });
  }
  await s.graph.addLinks([
    makeLink(aliceSaysCarol, { nodeType: 'entity', nodeId: 'xylotrumpet', kind: 'about_entity' }),
    makeLink(carolFact, { nodeType: 'entity', nodeId: 'sourdough', kind: 'about_entity' }),
  ]);
  await s.aliases.upsert({
    guildId: G1,
    alias: 'alice',
    userId: 'alice',
    source: 'display_name',
    weight: 0.7,
    updatedAt: at(0),
  });
  await s.aliases.upsert({
    guildId: G2,
    alias: 'alice',
    userId: 'alice',
    source: 'display_name',
    weight: 0.7,
    updatedAt: at(0),
  });
  await s.digests.putDigest({
    guildId: G1,
    subjectId: 'alice',
    text: 'alice digest words',
    generatedAt: at(0),
    sourceFactCount: 3,
  });
  const aliceMsg = makeMessage({
    authorId: 'alice',
    content: 'alice says quokka things',
    status: 'processed',
  });
  const alicePending = makeMessage({ authorId: 'alice', content: 'alice pending quokka' });
  const carolMsg = makeMessage({ authorId: 'carol', content: 'carol says hello there' });
  await s.queue.enqueueMany([aliceMsg, alicePending, carolMsg], 1000);
  const v = unitVector(1, 8);
  await s.vectors.upsert([
    vectorItem(aboutBobByAlice.id, v, { subjectId: 'bob' }),
    vectorItem(aliceSaysCarol.id, v, { subjectId: 'carol' }),
    vectorItem(carolFact.id, v, { subjectId: 'carol' }),
    vectorItem(aliceMsg.messageId, v, { kind: 'message', subjectId: 'alice' }),
  ]);
  return { bobFact, aboutBobByAlice, aliceSaysCarol, carolFact, otherGuild, aliceMsg, carolMsg, v };
}

export function governanceSuite(o: ConformanceOptions): void {
  describe('governance', () => {
    it('sets, reads, lists and clears opt-outs per guild', () =>
      withStore(o, async (s) => {
        expect(await s.consent.isOptedOut(G1, 'u1')).toBe(false);
        await s.consent.setOptOut(G1, 'u1', true, at(0));
        await s.consent.setOptOut(G1, 'u2', true, at(0));
        expect(await s.consent.isOptedOut(G1, 'u1')).toBe(true);
        expect(await s.consent.isOptedOut(G2, 'u1')).toBe(false);
        expect(await s.consent.optedOutUsers(G1)).toEqual(['u1', 'u2']);
        await s.consent.setOptOut(G1, 'u1', false, at(1));
        expect(await s.consent.isOptedOut(G1, 'u1')).toBe(false);
      }));

    it('stores digests per subject and one for the server', () =>
      withStore(o, async (s) => {
        await s.digests.putDigest({
          guildId: G1,
          subjectId: 'u1',
          text: 'first',
          generatedAt: at(0),
          sourceFactCount: 5,
        });
        await s.digests.putDigest({
          guildId: G1,
          subjectId: 'u1',
          text: 'second',
          generatedAt: at(9),
          sourceFactCount: 10,
        });
        await s.digests.putDigest({
          guildId: G1,
          subjectId: null,
          text: 'server',
          generatedAt: at(9),
          sourceFactCount: 7,
        });
        expect(await s.digests.getDigest(G1, 'u1')).toMatchObject({ text: 'second', sourceFactCount: 10 });
        expect((await s.digests.getDigest(G1, null))?.text).toBe('server');
        expect(await s.digests.getDigest(G2, 'u1')).toBeNull();
      }));

    it('keeps cursors, meta and token counters per guild and period', () =>
      withStore(o, async (s) => {
        await s.cursors.setCursor(G1, 'server_window', 'a|1');
        await s.cursors.setCursor(G1, 'server_window', 'b|2');
        expect(await s.cursors.getCursor(G1, 'server_window')).toBe('b|2');
        expect(await s.cursors.getCursor(G2, 'server_window')).toBeNull();
        await s.meta.setMeta('embedder', 'hashing-v1-256');
        expect(await s.meta.getMeta('embedder')).toBe('hashing-v1-256');
        expect(await s.meta.getMeta('missing')).toBeNull();
        await s.budgets.chargeTokens(G1, ['d:2026-08-24', 'm:2026-08'], 40);
        await s.budgets.chargeTokens(G1, ['d:2026-08-24', 'm:2026-08'], 15);
        await s.budgets.chargeTokens(G1, ['d:2026-08-25', 'm:2026-08'], 5);
        expect(await s.budgets.tokenUsage(G1, ['d:2026-08-24', 'm:2026-08', 'd:2026-08-26'])).toEqual({
          'd:2026-08-24': 55,
          'm:2026-08': 60,
          'd:2026-08-26': 0,
        });
        expect(await s.budgets.tokenUsage(G2, ['m:2026-08'])).toEqual({ 'm:2026-08': 0 });
      }));

    it('purge dry run reports counts and changes nothing', () =>
      withStore(o, async (s) => {
        const scene = await seedPurgeScene(s);
        const before = await s.admin.exportGuild(G1);
        const report = await s.admin.purgeUser({ guildId: G1, userId: 'alice', dryRun: true });
        expect(report).toMatchObject({
          dryRun: true,
          facts: 2,
          aliases: 1,
          digests: 1,
          messages: 2,
          sourcesStripped: 1,
          entitiesUnlinked: 1,
          entities: 1,
        });
        expect(report.relations).toBeGreaterThanOrEqual(2);
        expect(report.vectors).toBe(3);
        expect(report.history).toBe(1);
        expect(await s.admin.exportGuild(G1)).toEqual(before);
        expect((await s.facts.get(G1, [scene.aboutBobByAlice.id])).length).toBe(1);
      }));

    it('purge removes every trace of the user and keeps everyone else', () =>
      withStore(o, async (s) => {
        const scene = await seedPurgeScene(s);
        const report = await s.admin.purgeUser({ guildId: G1, userId: 'alice', dryRun: false });
        expect(report).toMatchObject({ dryRun: false, facts: 2, messages: 2, aliases: 1, digests: 1 });
        expect(await s.facts.get(G1, [scene.aboutBobByAlice.id, scene.aliceSaysCarol.id])).toEqual([]);
        expect(await s.facts.history(G1, scene.aboutBobByAlice.id)).toEqual([]);
        expect(
          await s.facts.searchText({ guildId: G1, validity: 'any' }, indexTerms('hacker xylotrumpet'), 10),
        ).toEqual([]);
        expect(await s.conversation.searchText(G1, indexTerms('quokka'), 10)).toEqual([]);
        const hits = await s.vectors.search({ kind: 'fact', guildId: G1, vector: scene.v, limit: 10 });
        expect(hits.map((h) => h.id)).toEqual([scene.carolFact.id]);
        expect(await s.vectors.count(G1, 'message')).toBe(0);
        expect(await s.aliases.find(G1, 'alice', 8)).toEqual([]);
        expect(await s.digests.getDigest(G1, 'alice')).toBeNull();
        expect(
          await s.graph.linksForNodes(G1, [{ type: 'user', id: 'alice' }], {
            limitPerNode: 50,
            validity: 'any',
          }),
        ).toEqual([]);
        const rels = await s.graph.relationsOf(
          G1,
          [
            { type: 'user', id: 'alice' },
            { type: 'user', id: 'carol' },
          ],
          10,
        );
        expect(rels.map((r) => r.verb)).toEqual(['likes']);
        expect(await s.graph.entitiesLinkedTo(G1, ['alice'])).toEqual([]);
        expect(
          (await s.graph.getEntities(G1, ['xylotrumpet', 'sourdough', 'ali'])).map((e) => e.slug),
        ).toEqual(['sourdough', 'ali']);
        expect(await s.graph.findEntitiesByAlias(G1, ['xylotrumpet'])).toEqual([]);
        const [carol] = await s.facts.get(G1, [scene.carolFact.id]);
        expect(carol?.sources.map((x) => x.authorId)).toEqual(['carol']);
        expect(
          (await s.conversation.getMessages(G1, [scene.aliceMsg.messageId, scene.carolMsg.messageId])).map(
            (m) => m.authorId,
          ),
        ).toEqual(['carol']);
        const snapshot = JSON.stringify(await s.admin.exportGuild(G1));
        for (const secret of [
          'hacker',
          'xylotrumpet',
          'alice history text',
          'alice digest words',
          'alice quoted words',
        ]) {
          expect(snapshot.includes(secret)).toBe(false);
        }
        expect((await s.facts.get(G1, [scene.bobFact.id])).length).toBe(1);
        expect((await s.facts.get(G2, [scene.otherGuild.id])).length).toBe(1);
        expect((await s.aliases.find(G2, 'alice', 8)).length).toBe(1);
      }));

    it('exports a guild and imports it into an empty store losslessly', async () => {
      let exported: Awaited<ReturnType<MemoryStore['admin']['exportGuild']>> | undefined;
      await withStore(o, async (s) => {
        await seedPurgeScene(s);
        await s.facts.insert([makeFact({ text: 'ended fact', validUntil: at(3), supersededById: 'fct_z' })]);
        await s.consent.setOptOut(G1, 'dave', true, at(0));
        exported = await s.admin.exportGuild(G1);
        expect(exported.facts.length).toBe(5);
        expect(exported.facts.some((f) => f.guildId === G2)).toBe(false);
      });
      await withStore(o, async (s) => {
        const counts = await s.admin.importGuild(exported as NonNullable<typeof exported>);
        expect(counts.facts).toBe(5);
        const again = await s.admin.exportGuild(G1);
        const sortRel = (x: typeof again) => ({
          ...x,
          relations: [...x.relations].sort((a, b) => (a.verb < b.verb ? -1 : 1)),
          links: [...x.links].sort((a, b) =>
            a.factId + a.kind + a.nodeId < b.factId + b.kind + b.nodeId ? -1 : 1,
          ),
          aliases: [...x.aliases].sort((a, b) => (a.alias + a.userId < b.alias + b.userId ? -1 : 1)),
          history: [...x.history].sort((a, b) => (a.factId < b.factId ? -1 : 1)),
        });
        expect(sortRel(again)).toEqual(sortRel(exported as NonNullable<typeof exported>));
        expect(await s.consent.isOptedOut(G1, 'dave')).toBe(true);
        expect((await s.facts.searchText({ guildId: G1 }, indexTerms('sourdough'), 5)).length).toBe(1);
      });
    });

    it('reports guild statistics and lists guilds', () =>
      withStore(o, async (s) => {
        await seedPurgeScene(s);
        await s.facts.insert([
          makeFact({ subjectId: null, text: 'server rule', tier: 'core' }),
          makeFact({ text: 'ended', validUntil: at(1) }),
        ]);
        const stats = await s.admin.guildStats(G1);
        expect(stats).toMatchObject({
          guildId: G1,
          totalFacts: 6,
          activeFacts: 5,
          users: 2,
          entities: 3,
          relations: 3,
          aliases: 1,
          pending: 2,
          processed: 1,
        });
        expect(stats.byScope).toEqual({ user: 4, server: 1 });
        expect(stats.byTier.core).toBe(1);
        expect(await s.admin.listGuildIds()).toEqual([G1, G2]);
      }));
  });
}

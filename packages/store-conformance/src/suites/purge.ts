import type { MemoryStore } from '@permafrost/core';
import { purgeMember } from '@permafrost/core/internal';
import { indexTerms } from '@permafrost/core/store';
import { describe, expect, it } from 'vitest';
import { type ConformanceOptions, G1, G2, withStore } from '../fixtures.js';
import { sorted } from './guild-import.js';
import { seedPurgeScene, seedStatementsAboutOthers } from './purge-scene.js';

const purge = (s: MemoryStore, dryRun: boolean) => purgeMember(s, { guildId: G1, userId: 'alice', dryRun });

export function purgeSuite(o: ConformanceOptions): void {
  describe('purge (core plan, store applies)', () => {
    it('purge dry run reports counts and changes nothing', () =>
      withStore(o, async (s) => {
        const scene = await seedPurgeScene(s);
        const before = await s.admin.exportGuild(G1);
        const report = await purge(s, true);
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

    it('a dry run reports exactly the counts of the real purge', () =>
      withStore(o, async (s) => {
        await seedStatementsAboutOthers(s);
        const dry = await purge(s, true);
        const real = await purge(s, false);
        expect(real).toEqual({ ...dry, dryRun: false });
        // Nothing of the member is left to find: a second purge has nothing to do.
        expect(await purge(s, true)).toMatchObject({
          facts: 0,
          vectors: 0,
          history: 0,
          links: 0,
          relations: 0,
          aliases: 0,
          digests: 0,
          messages: 0,
          sourcesStripped: 0,
          entitiesUnlinked: 0,
          entities: 0,
        });
      }));

    it('purge removes every trace of the user and keeps everyone else', () =>
      withStore(o, async (s) => {
        const scene = await seedPurgeScene(s);
        const report = await purge(s, false);
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

    it('purging a member who stated facts about others drops what quotes them and keeps what is shared', () =>
      withStore(o, async (s) => {
        const scene = await seedStatementsAboutOthers(s);
        const report = await purge(s, false);
        expect(report).toMatchObject({
          facts: 3,
          digests: 4,
          sourcesStripped: 1,
          relations: 1,
          entities: 1,
          entitiesUnlinked: 1,
        });
        // The digests of every subject alice stated facts about (the server too) are gone; dave's stays.
        for (const subject of ['alice', 'bob', 'carol', null])
          expect(await s.digests.getDigest(G1, subject)).toBeNull();
        expect((await s.digests.getDigest(G1, 'dave'))?.text).toBe('digest of dave');
        expect(await s.facts.get(G1, [scene.serverByAlice.id])).toEqual([]);
        // Carol's relation to the xylotrumpet loses alice's evidence and keeps her own.
        const plays = (await s.graph.relationsOf(G1, [{ type: 'user', id: 'carol' }], 10)).find(
          (r) => r.verb === 'plays',
        );
        expect(plays?.evidenceFactIds).toEqual([scene.carolPlays.id]);
        expect(await s.graph.relationsCiting(G1, [scene.aliceSaysCarol.id])).toEqual([]);
        // The entity only alice's statement named is gone; one carol's own fact names is kept.
        expect(
          (await s.graph.getEntities(G1, ['kazoo', 'xylotrumpet', 'sourdough', 'ali'])).map((e) => e.slug),
        ).toEqual(['xylotrumpet', 'sourdough', 'ali']);
        expect(await s.graph.findEntitiesByAlias(G1, ['kazoo'])).toEqual([]);
        expect((await s.graph.findEntitiesByAlias(G1, ['xylotrumpet'])).map((e) => e.slug)).toEqual([
          'xylotrumpet',
        ]);
        const [carol] = await s.facts.get(G1, [scene.carolFact.id]);
        expect(carol?.sources.map((x) => x.authorId)).toEqual(['carol']);
        expect((await s.facts.get(G1, [scene.carolPlays.id, scene.daveFact.id])).length).toBe(2);
        const snapshot = JSON.stringify(await s.admin.exportGuild(G1));
        for (const secret of ['hacker', 'fridays', 'kazoo', 'alice quoted words'])
          expect(snapshot.includes(secret)).toBe(false);
      }));

    it('a purge inside a failing transaction leaves nothing changed on atomic stores', async (ctx) => {
      await withStore(o, async (s) => {
        if (s.capabilities.transactions !== 'atomic') {
          ctx.annotate(`${s.name} declares ordered (non-atomic) transactions`);
          return;
        }
        await seedPurgeScene(s);
        const before = sorted(await s.admin.exportGuild(G1));
        await expect(
          s.transaction(async () => {
            await purge(s, false);
            throw new Error('abort after the purge');
          }),
        ).rejects.toThrow('abort after the purge');
        // The same rows (a rollback may restore them in another order).
        expect(sorted(await s.admin.exportGuild(G1))).toEqual(before);
      });
    });
  });
}

import { EXPORT_FORMAT, type GuildSnapshot, type MemoryStore } from '@permafrost/core';
import { guildExportV1Schema, importSnapshot, upgradeExport } from '@permafrost/core/internal';
import { indexTerms } from '@permafrost/core/store';
import { describe, expect, it } from 'vitest';
import { at, type ConformanceOptions, G1, G2, makeFact, withStore } from '../fixtures.js';
import { seedPurgeScene } from './purge-scene.js';

/** A snapshot in a stable order (stores export relations, links, entities, aliases, history and digests in their own). */
export function sorted(x: GuildSnapshot): GuildSnapshot {
  return {
    ...x,
    relations: [...x.relations].sort((a, b) => (a.verb < b.verb ? -1 : 1)),
    links: [...x.links].sort((a, b) =>
      a.factId + a.kind + a.nodeId < b.factId + b.kind + b.nodeId ? -1 : 1,
    ),
    aliases: [...x.aliases].sort((a, b) => (a.alias + a.userId < b.alias + b.userId ? -1 : 1)),
    history: [...x.history].sort((a, b) => (a.factId < b.factId ? -1 : 1)),
    entities: [...x.entities].sort((a, b) => (a.slug < b.slug ? -1 : 1)),
    digests: [...x.digests].sort((a, b) => ((a.subjectId ?? '') < (b.subjectId ?? '') ? -1 : 1)),
  };
}

/** The purge scene, an ended fact and two opt-outs recorded at distinct instants, exported. */
async function exportedScene(o: ConformanceOptions): Promise<GuildSnapshot> {
  return withStore(o, async (s) => {
    await seedPurgeScene(s);
    await s.facts.insert([makeFact({ text: 'ended fact', validUntil: at(3), supersededById: 'fct_z' })]);
    await s.consent.setOptOut(G1, 'dave', true, at(7));
    await s.consent.setOptOut(G1, 'erin', true, at(9));
    return s.admin.exportGuild(G1);
  });
}

const activeRelations = async (s: MemoryStore) =>
  (await s.graph.relationsTouching(G1, [{ type: 'user', id: 'carol' }])).filter((r) => r.validUntil === null);

export function guildImportSuite(o: ConformanceOptions): void {
  describe('guild export and import (core plan, store applies)', () => {
    it('exports a guild and imports it into an empty store losslessly, opt-out dates included', async () => {
      const exported = await exportedScene(o);
      expect(exported.facts.length).toBe(5);
      expect(exported.facts.some((f) => f.guildId === G2)).toBe(false);
      expect(exported.optOuts).toEqual([
        { userId: 'dave', at: at(7) },
        { userId: 'erin', at: at(9) },
      ]);
      await withStore(o, async (s) => {
        const counts = await importSnapshot(s, exported);
        expect(counts).toMatchObject({ facts: 5, relations: 3, entities: 3, aliases: 1, digests: 1 });
        expect(sorted(await s.admin.exportGuild(G1))).toEqual(sorted(exported));
        expect(await s.consent.optedOutUsers(G1)).toEqual(['dave', 'erin']);
        expect((await s.facts.searchText({ guildId: G1 }, indexTerms('sourdough'), 5)).length).toBe(1);
      });
    });

    it('imports an old-format (version 1) export, dating its opt-outs at the export time', async () => {
      const exported = await exportedScene(o);
      const v1 = guildExportV1Schema.parse({
        ...exported,
        format: EXPORT_FORMAT,
        version: 1,
        exportedAt: at(500),
        optOuts: exported.optOuts.map((x) => x.userId),
      });
      const { format: _f, version, exportedAt: _e, ...snapshot } = upgradeExport(v1);
      expect(version).toBe(2);
      await withStore(o, async (s) => {
        expect((await importSnapshot(s, snapshot)).facts).toBe(5);
        const again = await s.admin.exportGuild(G1);
        expect(again.optOuts).toEqual([
          { userId: 'dave', at: at(500) },
          { userId: 'erin', at: at(500) },
        ]);
        expect(sorted({ ...again, optOuts: [] })).toEqual(sorted({ ...exported, optOuts: [] }));
      });
    });

    it('re-imports by natural key: no duplicate rows, one active relation per edge, consent kept', async () => {
      const exported = await exportedScene(o);
      await withStore(o, async (s) => {
        // The target already knows carol plays the xylotrumpet (another active edge, newer)
        // and that dave opted out (recorded here, later than in the export).
        await s.graph.upsertRelation({
          guildId: G1,
          src: { type: 'user', id: 'carol' },
          dst: { type: 'entity', id: 'xylotrumpet' },
          verb: 'plays',
          polarity: 'neutral',
          confidence: 0.5,
          evidenceFactId: 'fct_elsewhere',
          at: at(40),
        });
        await s.consent.setOptOut(G1, 'dave', true, at(50));
        await importSnapshot(s, exported);
        await importSnapshot(s, exported);
        const active = await activeRelations(s);
        expect(active.map((r) => r.verb).sort()).toEqual(['likes', 'plays']);
        const plays = active.find((r) => r.verb === 'plays');
        expect(plays?.evidenceFactIds).toEqual(
          exported.relations.find((r) => r.verb === 'plays')?.evidenceFactIds,
        );
        const again = await s.admin.exportGuild(G1);
        expect(again.facts.length).toBe(exported.facts.length);
        expect(again.links.length).toBe(exported.links.length);
        expect(again.relations.length).toBe(exported.relations.length);
        expect(again.history.length).toBe(exported.history.length);
        expect(again.optOuts).toEqual([
          { userId: 'dave', at: at(50) },
          { userId: 'erin', at: at(9) },
        ]);
      });
    });

    it('imports into another guild: every row moves there', async () => {
      const exported = await exportedScene(o);
      await withStore(o, async (s) => {
        await importSnapshot(s, exported, G2);
        const moved = await s.admin.exportGuild(G2);
        expect(moved.facts.length).toBe(5);
        expect(JSON.stringify(moved).includes(`"guildId":"${G1}"`)).toBe(false);
        expect((await s.admin.exportGuild(G1)).facts).toEqual([]);
        expect(await s.consent.optedOutUsers(G2)).toEqual(['dave', 'erin']);
      });
    });
  });
}

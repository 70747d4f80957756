import { describe, expect, it } from 'vitest';
import { importCounts, planImport } from '../../src/governance/import-plan.js';
import {
  EXPORT_FORMAT,
  type GuildSnapshot,
  guildExportSchema,
  guildExportV1Schema,
  upgradeExport,
} from '../../src/model/admin.js';
import type { Fact } from '../../src/model/fact.js';
import type { Relation } from '../../src/model/graph.js';
import { G, G2, makeFact, T0 } from '../helpers/world.js';

const at = (s: number) => new Date(T0.getTime() + s * 1000);
const relation = (over: Partial<Relation>): Relation => ({
  guildId: G,
  srcType: 'user',
  srcId: 'carol',
  dstType: 'entity',
  dstId: 'tea',
  verb: 'likes',
  polarity: 'positive',
  weight: 0.5,
  occurrences: 1,
  confidence: 0.8,
  evidenceFactIds: ['f1'],
  validFrom: T0,
  validUntil: null,
  updatedAt: T0,
  ...over,
});
/** A snapshot of model rows (readonly, as stores hand them out). */
const snapshot = (
  over: { facts?: readonly Fact[]; relations?: readonly Relation[]; optOuts?: GuildSnapshot['optOuts'] } = {},
): GuildSnapshot =>
  ({
    guildId: G,
    facts: [],
    history: [],
    links: [],
    relations: [],
    entities: [],
    aliases: [],
    digests: [],
    optOuts: [],
    ...over,
  }) as unknown as GuildSnapshot;
const ref = (r: Relation) => ({
  srcType: r.srcType,
  srcId: r.srcId,
  dstType: r.dstType,
  dstId: r.dstId,
  verb: r.verb,
  validFrom: r.validFrom,
});

describe('import plan', () => {
  it('moves every row to the target guild', () => {
    const fact = makeFact({ text: 'carol likes tea', subjectId: 'carol' });
    const plan = planImport(snapshot({ facts: [fact], relations: [relation({})] }), G2, {
      relations: [],
      optedOut: new Set(),
    });
    expect(plan.guildId).toBe(G2);
    expect(plan.facts.map((f) => f.guildId)).toEqual([G2]);
    expect(plan.relations.map((r) => r.guildId)).toEqual([G2]);
  });

  it('matches relations by natural key and keeps one active relation per edge', () => {
    const sameKey = relation({ validUntil: at(5), validFrom: at(1), verb: 'brews' });
    const activeTwin = relation({ validFrom: at(40), weight: 0.1 });
    const unrelated = relation({ verb: 'hates', validFrom: at(2) });
    const imported = [
      relation({ verb: 'brews', validFrom: at(1), validUntil: at(9) }),
      relation({ validFrom: at(0) }),
      relation({ validFrom: at(3), evidenceFactIds: ['f2'] }),
    ];
    const plan = planImport(snapshot({ relations: imported }), G, {
      relations: [sameKey, activeTwin, unrelated],
      optedOut: new Set(),
    });
    expect(plan.replaceRelations).toEqual([ref(sameKey), ref(activeTwin)]);
    // Of two active relations for one edge in the export, the later one is written.
    expect(plan.relations).toEqual([imported[0], imported[2]]);
  });

  it('records exported opt-outs with their dates, except for members already opted out', () => {
    const plan = planImport(
      snapshot({
        optOuts: [
          { userId: 'dave', at: at(7) },
          { userId: 'erin', at: at(9) },
          { userId: 'erin', at: at(8) },
        ],
      }),
      G,
      { relations: [], optedOut: new Set(['dave']) },
    );
    expect(plan.optOuts).toEqual([{ userId: 'erin', at: at(8) }]);
  });

  it('counts what the snapshot holds', () => {
    const s = snapshot({ facts: [makeFact({ text: 'x' })], relations: [relation({})] });
    expect(importCounts(s)).toEqual({
      facts: 1,
      relations: 1,
      entities: 0,
      aliases: 0,
      links: 0,
      history: 0,
      digests: 0,
    });
  });
});

describe('export versions', () => {
  const body = { format: EXPORT_FORMAT, exportedAt: at(100).toISOString(), ...snapshot(), optOuts: [] };

  it('reads a version 1 export, dating its opt-outs at the export time', () => {
    const v1 = guildExportV1Schema.parse({ ...body, version: 1, optOuts: ['dave'] });
    expect(upgradeExport(v1)).toMatchObject({ version: 2, optOuts: [{ userId: 'dave', at: at(100) }] });
  });

  it('writes version 2 with dated opt-outs and rejects bare ids in it', () => {
    const v2 = guildExportSchema.parse({ ...body, version: 2, optOuts: [{ userId: 'dave', at: at(7) }] });
    expect(upgradeExport(v2)).toEqual(v2);
    expect(guildExportSchema.safeParse({ ...body, version: 2, optOuts: ['dave'] }).success).toBe(false);
  });
});

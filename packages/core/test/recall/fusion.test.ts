import { describe, expect, it } from 'vitest';
import { ChannelName } from '../../src/model/enums.js';
import { entityComponent, fusedScore, mergeChannels, selectPool } from '../../src/recall/fusion.js';
import { retention, strengthSignal } from '../../src/recall/strength.js';
import { DAY, makeFact, T0 } from '../helpers/world.js';

const W = { semantic: 0.45, lexical: 0.3, entity: 0.1, strength: 0.05, rrf: 0.1, temporal: 0.1 };
const comps = { semantic: 0, lexical: 0, entity: 0, strength: 0, rrf: 0, temporal: 0 };

describe('fusion', () => {
  it('keeps reciprocal-rank consensus in the final score', () => {
    const merged = mergeChannels(
      [
        {
          channel: ChannelName.LINKS,
          hits: [
            { factId: 'a', score: 0 },
            { factId: 'b', score: 0 },
          ],
        },
        { channel: ChannelName.BASELINE, hits: [{ factId: 'a', score: 0 }] },
      ],
      60,
    );
    const a = merged.get('a');
    const b = merged.get('b');
    expect(a?.rrf).toBe(1);
    expect(b?.rrf).toBeCloseTo(1 / 62 / (2 / 61), 6);
    // A fact found only by structural channels still scores through rrf, above one found less often.
    expect(fusedScore({ ...comps, rrf: a?.rrf ?? 0 }, W)).toBeGreaterThan(
      fusedScore({ ...comps, rrf: b?.rrf ?? 0 }, W),
    );
    expect(a?.channels).toEqual([ChannelName.LINKS, ChannelName.BASELINE]);
  });

  it('max-normalises BM25 and clamps cosine', () => {
    const merged = mergeChannels(
      [
        {
          channel: ChannelName.KEYWORD,
          hits: [
            { factId: 'a', score: 8 },
            { factId: 'b', score: 2 },
          ],
        },
        {
          channel: ChannelName.VECTOR,
          hits: [
            { factId: 'b', score: 0.7 },
            { factId: 'c', score: -0.2 },
          ],
        },
      ],
      60,
    );
    expect(merged.get('a')?.lexical).toBe(1);
    expect(merged.get('b')?.lexical).toBe(0.25);
    expect(merged.get('b')?.semantic).toBeCloseTo(0.7, 6);
    expect(merged.get('c')?.semantic).toBe(0);
  });

  it('is a weighted mean in [0, 1] whose inactive components leave the divisor', () => {
    const all = { semantic: 1, lexical: 1, entity: 1, strength: 1, rrf: 1, temporal: 1 };
    expect(fusedScore(all, W)).toBe(1);
    const noEntity = { entity: false, temporal: false, strength: true };
    expect(fusedScore({ ...all, entity: 0, temporal: 0 }, W, noEntity)).toBe(1);
    expect(fusedScore({ ...comps, semantic: 1 }, W, noEntity)).toBeCloseTo(0.45 / 0.9, 6);
    expect(
      fusedScore(
        { ...comps, rrf: 0.5 },
        { ...W, semantic: 0, lexical: 0, entity: 0, strength: 0, rrf: 0, temporal: 0 },
      ),
    ).toBe(0.5);
  });

  it('changes the ranking when weights change', () => {
    const lexicalFact = { ...comps, lexical: 1 };
    const semanticFact = { ...comps, semantic: 0.8 };
    expect(fusedScore(semanticFact, W)).toBeGreaterThan(fusedScore(lexicalFact, W));
    const lexicalHeavy = { ...W, semantic: 0.1, lexical: 0.9 };
    expect(fusedScore(lexicalFact, lexicalHeavy)).toBeGreaterThan(fusedScore(semanticFact, lexicalHeavy));
  });

  it('selects the pool by preliminary score', () => {
    const merged = mergeChannels(
      [
        {
          channel: ChannelName.KEYWORD,
          hits: ['a', 'b', 'c'].map((factId, i) => ({ factId, score: 3 - i })),
        },
      ],
      60,
    );
    expect(
      selectPool(merged.values(), W, { entity: true, temporal: false, strength: true }, 2).map(
        (c) => c.factId,
      ),
    ).toEqual(['a', 'b']);
  });

  it('gives the entity component to facts about named members and entities', () => {
    const c = mergeChannels([{ channel: ChannelName.KEYWORD, hits: [{ factId: 'x', score: 1 }] }], 60).get(
      'x',
    );
    if (!c) throw new Error('missing');
    const targets = { userIds: new Set(['u2']), entitySlugs: new Set(['golf']) };
    expect(entityComponent(c, makeFact({ text: 'a', subjectId: 'u2' }), targets)).toBe(1);
    expect(entityComponent(c, makeFact({ text: 'a', entitySlugs: ['golf'] }), targets)).toBe(1);
    expect(entityComponent(c, makeFact({ text: 'a', relatedUserIds: ['u2'] }), targets)).toBe(1);
    expect(entityComponent(c, makeFact({ text: 'a' }), targets)).toBe(0);
  });
});

describe('strength prior', () => {
  it('is min(1, ln(1+s)/ln 11) × retention', () => {
    const f = makeFact({ text: 'x', strength: 10, lastReinforcedAt: T0 });
    expect(strengthSignal(f, T0, 7)).toBeCloseTo(1, 6);
    const weak = makeFact({ text: 'x', strength: 1, lastReinforcedAt: T0 });
    expect(strengthSignal(weak, T0, 7)).toBeCloseTo(Math.log(2) / Math.log(11), 6);
    expect(retention(weak, new Date(T0.getTime() + 7 * DAY), 7)).toBeCloseTo(Math.exp(-1), 6);
    // Stronger facts fade more slowly; stability is the lifecycle knob.
    expect(retention(f, new Date(T0.getTime() + 7 * DAY), 7)).toBeCloseTo(Math.exp(-0.1), 6);
    expect(retention(weak, new Date(T0.getTime() + 7 * DAY), 70)).toBeCloseTo(Math.exp(-0.1), 6);
  });
});

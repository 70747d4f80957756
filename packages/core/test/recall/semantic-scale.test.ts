import { describe, expect, it } from 'vitest';
import { cacheEmbedder } from '../../src/adapters/embedding/cached-embedder.js';
import { createHashingEmbedder } from '../../src/adapters/embedding/hashing-embedder.js';
import { guardEmbedder } from '../../src/adapters/llm/call-guard.js';
import { ChannelName } from '../../src/model/enums.js';
import type { Embedder } from '../../src/ports/embedder.js';
import { mergeChannels } from '../../src/recall/fusion.js';
import { relativeSemantic, semanticScaler } from '../../src/recall/semantic-scale.js';
import { createFakeEmbedder } from '../../src/testing/fake-embedder.js';

const model: Embedder = { id: 'model', dimensions: 4, embed: async () => [], close: async () => {} };

describe('semantic scale', () => {
  it('auto is relative for a sentence-embedding model and raw cosine for a lexical embedder', () => {
    expect(relativeSemantic('auto', model)).toBe(true);
    expect(relativeSemantic('auto', createHashingEmbedder())).toBe(false);
    // wrappers keep the declaration
    expect(relativeSemantic('auto', cacheEmbedder(createHashingEmbedder()))).toBe(false);
    expect(relativeSemantic('auto', cacheEmbedder(model))).toBe(true);
    const lifetime = new AbortController().signal;
    expect(relativeSemantic('auto', guardEmbedder(createHashingEmbedder(), lifetime))).toBe(false);
    expect(relativeSemantic('auto', guardEmbedder(model, lifetime))).toBe(true);
    expect(relativeSemantic('auto', createFakeEmbedder())).toBe(false);
    expect(relativeSemantic('auto', createFakeEmbedder({ lexical: false }))).toBe(true);
    expect(relativeSemantic('cosine', model)).toBe(false);
    expect(relativeSemantic('relative', createHashingEmbedder())).toBe(true);
  });

  it('min-max normalises the positive cosines of one query', () => {
    const relative = semanticScaler([0.6, 0.5, 0.3, -0.2], true);
    expect(relative(0.6)).toBeCloseTo(1, 9);
    expect(relative(0.5)).toBeCloseTo(2 / 3, 9);
    expect(relative(0.3)).toBe(0);
    expect(relative(-0.2)).toBe(0);
    const cosine = semanticScaler([0.6, 0.5], false);
    expect(cosine(0.5)).toBe(0.5);
    expect(cosine(1.5)).toBe(1);
    // one hit, or all tied: every positive hit is the best
    expect(semanticScaler([0.4], true)(0.4)).toBe(1);
    expect(semanticScaler([], true)(0)).toBe(0);
  });

  it('mergeChannels scales only the vector list', () => {
    const lists = [
      {
        channel: ChannelName.VECTOR,
        hits: [
          { factId: 'a', score: 0.6 },
          { factId: 'b', score: 0.45 },
          { factId: 'c', score: 0.3 },
        ],
      },
      { channel: ChannelName.KEYWORD, hits: [{ factId: 'c', score: 4 }] },
    ];
    const raw = mergeChannels(lists, 60);
    const rel = mergeChannels(lists, 60, true);
    expect([raw.get('a')?.semantic, raw.get('b')?.semantic, raw.get('c')?.semantic]).toEqual([
      0.6, 0.45, 0.3,
    ]);
    expect(rel.get('a')?.semantic).toBeCloseTo(1, 9);
    expect(rel.get('b')?.semantic).toBeCloseTo(0.5, 9);
    expect(rel.get('c')?.semantic).toBe(0);
    expect(rel.get('c')?.lexical).toBe(1);
  });
});

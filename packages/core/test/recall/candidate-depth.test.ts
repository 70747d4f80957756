import { describe, expect, it } from 'vitest';
import { candidateDepth } from '../../src/recall/candidate-depth.js';
import { config } from '../helpers/world.js';

describe('candidateDepth', () => {
  const r = (retrieval: Record<string, unknown> = {}) => config(retrieval).retrieval;

  it('keeps channelLimit and poolSize while depthPerResult × topK fits in the channel limit', () => {
    expect(candidateDepth(r(), 8)).toEqual({ channel: 50, pool: 100 });
    expect(candidateDepth(r({ channelLimit: 60, poolSize: 70 }), 10)).toEqual({ channel: 60, pool: 70 });
    expect(candidateDepth(r({ depthPerResult: 0 }), 200)).toEqual({ channel: 50, pool: 100 });
  });

  it('deepens the channels to depthPerResult × topK and the pool in proportion', () => {
    expect(candidateDepth(r(), 50)).toEqual({ channel: 300, pool: 600 });
    expect(candidateDepth(r({ channelLimit: 40, poolSize: 50, depthPerResult: 2 }), 30)).toEqual({
      channel: 60,
      pool: 75,
    });
  });

  it('stays within the largest channelLimit and poolSize the config accepts', () => {
    expect(candidateDepth(r({ depthPerResult: 50 }), 200)).toEqual({ channel: 500, pool: 1000 });
  });
});

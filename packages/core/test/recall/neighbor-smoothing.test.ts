import { describe, expect, it } from 'vitest';
import type { StoredMessage } from '../../src/model/message.js';
import { smoothScores } from '../../src/recall/neighbor-smoothing.js';

const msg = (id: string, minute: number, channelId = 'c1', authorId = `u-${id}`): StoredMessage =>
  ({ messageId: id, channelId, authorId, createdAt: new Date(minute * 60_000) }) as StoredMessage;

describe('neighbour smoothing', () => {
  const opts = { weight: 0.5, window: 2, maxGapMs: 60 * 60_000 };
  it('gives each message weight^d of its neighbours and normalises into [0, 1]', () => {
    const chain = [msg('a', 0), msg('b', 1), msg('c', 2)];
    const { scores, context } = smoothScores(new Map([['c', 1]]), [chain], opts);
    const norm = 1 + 2 * (0.5 + 0.25);
    expect(scores.get('c')).toBeCloseTo(1 / norm, 6);
    expect(scores.get('b')).toBeCloseTo(0.5 / norm, 6);
    expect(scores.get('a')).toBeCloseTo(0.25 / norm, 6);
    expect(context.get('b')).toBeCloseTo(0.5 / norm, 6);
    const all = smoothScores(
      new Map([
        ['a', 1],
        ['b', 1],
        ['c', 1],
      ]),
      [chain],
      opts,
    ).scores;
    for (const v of all.values()) expect(v).toBeLessThanOrEqual(1);
  });

  it('stops at a time gap and at the window', () => {
    const chain = [msg('old', 0), msg('a', 500), msg('b', 501)];
    const { scores } = smoothScores(new Map([['b', 1]]), [chain], opts);
    expect(scores.has('old')).toBe(false);
    expect(scores.get('a')).toBeGreaterThan(0);
    const narrow = smoothScores(new Map([['c', 1]]), [[msg('a', 0), msg('b', 1), msg('c', 2)]], {
      ...opts,
      window: 1,
    });
    expect(narrow.scores.has('a')).toBe(false);
  });

  it('does nothing with weight 0', () => {
    const { scores } = smoothScores(new Map([['b', 0.8]]), [[msg('a', 0), msg('b', 1)]], {
      ...opts,
      weight: 0,
    });
    expect(scores.get('b')).toBeCloseTo(0.8, 6);
    expect(scores.has('a')).toBe(false);
  });

  it("follows the exchange: one author's consecutive messages do not lift each other", () => {
    const alone = [msg('a1', 0, 'c1', 'ann'), msg('a2', 1, 'c1', 'ann'), msg('a3', 2, 'c1', 'ann')];
    const mono = smoothScores(new Map([['a2', 1]]), [alone], opts);
    expect(mono.scores.has('a1')).toBe(false);
    expect(mono.scores.has('a3')).toBe(false);
    expect(mono.scores.get('a2')).toBeCloseTo(1 / (1 + 2 * (0.5 + 0.25)), 6);
    // ann, ann, bob: the reply joins both of ann's messages; ann's two are not joined to each other.
    const dialogue = [msg('a1', 0, 'c1', 'ann'), msg('a2', 1, 'c1', 'ann'), msg('b1', 2, 'c1', 'bob')];
    const fromA1 = smoothScores(new Map([['a1', 1]]), [dialogue], opts);
    expect(fromA1.scores.has('a2')).toBe(false);
    expect(fromA1.scores.get('b1')).toBeGreaterThan(0);
    // ann, bob, ann: ann's turns around bob's reply share the exchange (two steps apart).
    const turns = [msg('a1', 0, 'c1', 'ann'), msg('b1', 1, 'c1', 'bob'), msg('a2', 2, 'c1', 'ann')];
    const across = smoothScores(new Map([['a1', 1]]), [turns], opts);
    expect(across.scores.get('a2')).toBeCloseTo(0.25 / (1 + 2 * (0.5 + 0.25)), 6);
  });
});

import { describe, expect, it } from 'vitest';
import { boostConversations } from '../../src/recall/conversation-boost.js';
import { makeMessage } from '../helpers/messages.js';
import { T0 } from '../helpers/world.js';

const MIN = 60_000;
const at = (minutes: number) => new Date(T0.getTime() + minutes * MIN);

describe('conversation boost', () => {
  const a1 = makeMessage({ content: 'a1', channelId: 'c1', createdAt: at(0) });
  const a2 = makeMessage({ content: 'a2', channelId: 'c1', createdAt: at(5) });
  const b1 = makeMessage({ content: 'b1', channelId: 'c2', createdAt: at(1) });
  const late = makeMessage({ content: 'late', channelId: 'c1', createdAt: at(500) });
  const messages = new Map([a1, a2, b1, late].map((m) => [m.messageId, m]));
  const scores = new Map([
    [a1.messageId, 0.8],
    [a2.messageId, 0.5],
    [b1.messageId, 0.6],
    [late.messageId, 0.55],
  ]);

  it('lifts the messages of the conversation that matches best as a whole, bounded', () => {
    const out = boostConversations(scores, messages, 0.5, 60 * MIN);
    // c1 (0–5 min): 0.8 + 0.5 = 1.3, the best; c2: 0.6; c1 at 500 min is another conversation: 0.55.
    expect(out.get(a2.messageId)).toBeCloseTo((0.5 + 0.5) / 1.5);
    expect(out.get(b1.messageId)).toBeCloseTo((0.6 + (0.5 * 0.6) / 1.3) / 1.5);
    expect(out.get(late.messageId)).toBeCloseTo((0.55 + (0.5 * 0.55) / 1.3) / 1.5);
    expect(out.get(a2.messageId)).toBeGreaterThan(out.get(b1.messageId) as number);
    for (const s of out.values()) expect(s).toBeLessThanOrEqual(1);
    expect(scores.get(a2.messageId)).toBe(0.5);
  });

  it('leaves unscored messages and a zero weight alone', () => {
    const withZero = new Map([...scores, ['none', 0]]);
    expect(boostConversations(withZero, messages, 0.5, 60 * MIN).get('none')).toBe(0);
    expect(boostConversations(scores, messages, 0, 60 * MIN)).toEqual(scores);
  });
});

import { describe, expect, it } from 'vitest';
import { agedOut, overCap, prunable } from '../../src/lifecycle/conversation-retention.js';
import { mergeEntity, newEntity } from '../../src/model/entity-rules.js';
import type { StoredMessage } from '../../src/model/message.js';
import { G, T0 } from '../helpers/world.js';

const at = (s: number) => new Date(T0.getTime() + s * 1000);

describe('entity rules', () => {
  const input = {
    guildId: G,
    slug: 'tea',
    name: 'Tea',
    kind: 'concept' as const,
    aliases: ['tea', 'chai', 'tea'],
    at: T0,
  };

  it('creates an entity with its aliases once, no facts and no member link', () => {
    expect(newEntity(input)).toEqual({
      guildId: G,
      slug: 'tea',
      name: 'Tea',
      kind: 'concept',
      aliases: ['tea', 'chai'],
      factCount: 0,
      linkedUserId: null,
      createdAt: T0,
      updatedAt: T0,
    });
  });

  it('merges aliases (stored first) and refreshes updatedAt, keeping name, kind, counts and link', () => {
    const stored = { ...newEntity(input), factCount: 3, linkedUserId: 'u1' };
    const again = {
      ...input,
      name: 'Other',
      kind: 'product' as const,
      aliases: ['black tea', 'chai'],
      at: at(9),
    };
    const merged = mergeEntity(stored, again);
    expect(merged).toEqual({ ...stored, aliases: ['tea', 'chai', 'black tea'], updatedAt: at(9) });
  });
});

describe('conversation retention rules', () => {
  const row = (
    messageId: string,
    status: StoredMessage['status'],
    s: number,
    kind: StoredMessage['kind'] = 'chat',
  ) => ({
    messageId,
    status,
    kind,
    createdAt: at(s),
  });

  it('never prunes pending, claimed or session rows', () => {
    expect(prunable(row('a', 'pending', 0))).toBe(false);
    expect(prunable(row('b', 'claimed', 0))).toBe(false);
    expect(prunable(row('c', 'processed', 0, 'session'))).toBe(false);
    expect(prunable(row('d', 'dead', 0))).toBe(true);
    expect(prunable(row('e', 'processed', 0, 'reply'))).toBe(true);
  });

  it('ages out prunable rows created before the cutoff', () => {
    const page = [row('a', 'processed', 1), row('b', 'pending', 2), row('c', 'processed', 10)];
    expect(agedOut(page, at(5))).toEqual(['a']);
  });

  it('takes the oldest prunable rows up to the excess', () => {
    const page = [
      row('a', 'pending', 1),
      row('b', 'processed', 2),
      row('c', 'dead', 3),
      row('d', 'processed', 4),
    ];
    expect(overCap(page, 2)).toEqual(['b', 'c']);
    expect(overCap(page, 0)).toEqual([]);
  });
});

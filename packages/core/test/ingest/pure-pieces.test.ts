import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { mineFactAlias, mineSelfAliases } from '../../src/ingest/alias-mining.js';
import { parseJsonObject } from '../../src/ingest/json-repair.js';
import { assignTier } from '../../src/ingest/tiers.js';
import { polarityFlip, sameAspect } from '../../src/text/aspects.js';

describe('tolerant JSON parsing', () => {
  it.each([
    ['{"operations": []}', { operations: [] }],
    ['```json\n{"operations": [1]}\n```', { operations: [1] }],
    ['Sure! Here you go: {"a": {"b": 2}} hope that helps', { a: { b: 2 } }],
    ['{"operations": [{"text": "Alice likes te', { operations: [{ text: 'Alice likes te' }] }],
    ['{"operations": [{"text": "x"}, ', { operations: [{ text: 'x' }] }],
    ['{"a": "brace } inside string", "b": 1}', { a: 'brace } inside string', b: 1 }],
  ])('%s', (raw, expected) => {
    expect(parseJsonObject(raw)).toEqual(expected);
  });
  it('returns undefined for prose and arrays', () => {
    expect(parseJsonObject('no json here')).toBeUndefined();
    expect(parseJsonObject('[1,2,3]')).toBeUndefined();
  });
});

describe('alias mining', () => {
  it('binds self-stated names to the speaker', () => {
    expect(mineSelfAliases('hey all, my name is Klim btw').map((a) => a.alias)).toEqual(['klim']);
    expect(mineSelfAliases('just call me Sam').map((a) => a.alias)).toEqual(['sam']);
    expect(mineSelfAliases('I go by Jo and I like tea').map((a) => a.alias)).toEqual(['jo']);
    expect(mineSelfAliases('my full name is Mary Ann').map((a) => a.alias)).toEqual(['mary ann']);
  });
  it('never binds a name stated about someone else', () => {
    expect(mineSelfAliases("nolan's last name is gregory")).toEqual([]);
    expect(mineSelfAliases("my brother's name is Tom")).toEqual([]);
    expect(mineSelfAliases('my dog name is Rex')).toEqual([]);
    expect(mineSelfAliases('my name is 123456789012')).toEqual([]);
  });
  it('mines a fact alias only about the subject itself', () => {
    expect(mineFactAlias("Alice's real name is Alicia", 'Alice')?.alias).toBe('alicia');
    expect(mineFactAlias('Alice goes by Al', 'Alice')?.alias).toBe('al');
    expect(mineFactAlias("Nolan's last name is Gregory", 'Bob')).toBeNull();
  });
});

describe('deterministic contradiction rule (used by reconcile)', () => {
  it('retires a residence after a move', () => {
    expect(sameAspect('Alice moved to Seattle', 'Alice lives in Omaha')).toBe(true);
    expect(polarityFlip('Alice moved to Seattle', 'Alice lives in Omaha')).toBe(true);
  });
  it('retires a preference when polarity flips on the same object', () => {
    expect(polarityFlip('Alice quit energy drinks', 'Alice loves energy drinks')).toBe(true);
    expect(polarityFlip('Alice no longer likes Red Bull', 'Alice loves Red Bull')).toBe(true);
    expect(
      polarityFlip(
        'Alice quit her job as a barista at the campus cafe',
        'Alice works as a barista at the campus cafe',
      ),
    ).toBe(true);
  });
  it('leaves unrelated or compatible facts alone', () => {
    expect(polarityFlip('Alice quit energy drinks', 'Alice loves hiking')).toBe(false);
    expect(polarityFlip('Alice loves tea', 'Alice loves coffee')).toBe(false);
    expect(polarityFlip('Alice works at Acme', 'Alice lives in Omaha')).toBe(false);
  });
});

describe('tiers', () => {
  const lifecycle = parseConfig({}).lifecycle;
  const base = {
    category: 'interests' as const,
    confidence: 0.8,
    occurrences: 1,
    attribution: 'self' as const,
    serverFact: false,
  };
  it('assigns tiers and TTLs', () => {
    expect(assignTier({ ...base, text: 'Alice likes tea', attribution: 'manual' }, lifecycle)).toEqual({
      tier: 'core',
      ttlDays: null,
    });
    expect(assignTier({ ...base, text: 'Alice is at the gym tonight' }, lifecycle)).toEqual({
      tier: 'short',
      ttlDays: 3,
    });
    expect(assignTier({ ...base, text: 'Alice has an exam tomorrow' }, lifecycle)).toEqual({
      tier: 'short',
      ttlDays: 7,
    });
    expect(assignTier({ ...base, text: 'Alice lives in Omaha', category: 'personal' }, lifecycle)).toEqual({
      tier: 'long',
      ttlDays: 180,
    });
    expect(assignTier({ ...base, text: 'Alice likes tea' }, lifecycle)).toEqual({ tier: 'mid', ttlDays: 45 });
    expect(
      assignTier(
        { ...base, text: 'Alice lives in Omaha', category: 'personal', confidence: 0.96, occurrences: 3 },
        lifecycle,
      ),
    ).toEqual({ tier: 'core', ttlDays: null });
    expect(
      assignTier(
        { ...base, text: 'No spoilers in general', category: 'rules', serverFact: true, confidence: 0.9 },
        lifecycle,
      ),
    ).toEqual({ tier: 'core', ttlDays: null });
  });
  it('uses the configured term lengths', () => {
    const custom = parseConfig({
      lifecycle: { shortTermDays: 2, midTermDays: 10, longTermDays: 99 },
    }).lifecycle;
    expect(assignTier({ ...base, text: 'Alice has an exam tomorrow' }, custom).ttlDays).toBe(2);
    expect(assignTier({ ...base, text: 'Alice is out tonight' }, custom).ttlDays).toBe(2);
    expect(assignTier({ ...base, text: 'Alice likes tea' }, custom).ttlDays).toBe(10);
    expect(assignTier({ ...base, text: 'Alice lives in Omaha', category: 'personal' }, custom).ttlDays).toBe(
      99,
    );
  });
});

import { queryTerms } from '@permafrost/core/store';
import { G1, makeFact, makeMessage } from '@permafrost/store-conformance';
import { createSqliteStore, ftsMatchExpression } from '@permafrost/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Strings that would be FTS5 syntax, SQL, or invalid text if they ever reached a query unquoted. */
const HOSTILE = [
  '"',
  '""',
  '"""',
  'a"b',
  '*',
  'a*',
  '* OR *',
  'NEAR',
  'NEAR(a b, 2)',
  'near(',
  'OR',
  'AND',
  'NOT',
  'a AND NOT b',
  '-x',
  '+x',
  'col:val',
  'terms:chess',
  '{terms}: chess',
  '(',
  ')',
  '((chess)',
  '^chess',
  "'",
  "'; DROP TABLE facts; --",
  '\\',
  '$gt',
  '%',
  '_',
  '\u0000',
  'chess\u0000',
  '\ud800',
  'a\udc00b',
  '\u0001\u0002',
  ' ',
  '\t\n',
  '',
  '🏳️‍🌈',
  'ｃｈｅｓｓ',
  'x'.repeat(5000),
  'rank MATCH',
  'bm25(facts_fts)',
];

describe('keyword search treats hostile input as data', () => {
  const store = createSqliteStore({ path: ':memory:' });

  beforeAll(async () => {
    await store.facts.insert([
      makeFact({ text: 'alice likes chess openings near the river' }),
      makeFact({ text: 'bob prefers drop shots in tennis' }),
    ]);
    await store.queue.enqueueMany(
      [
        makeMessage({ content: 'who wants to play chess tonight?' }),
        makeMessage({ content: 'drop table tennis is fun' }),
      ],
      100,
    );
  });
  afterAll(() => store.close());

  it('has at least thirty hostile strings', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(30);
  });

  it.each(HOSTILE.map((h) => [JSON.stringify(h).slice(0, 40), h]))(
    'query text %s goes through queryTerms + searchText without error',
    async (_label, hostile) => {
      const terms = queryTerms(hostile);
      const facts = await store.facts.searchText({ guildId: G1 }, terms, 10);
      const messages = await store.conversation.searchText(G1, terms, 10);
      expect(facts.every((h) => h.score > 0)).toBe(true);
      expect(messages.every((h) => h.score > 0)).toBe(true);
    },
  );

  it.each(HOSTILE.map((h) => [JSON.stringify(h).slice(0, 40), h]))(
    'raw term %s is bound as one quoted phrase without error',
    async (_label, hostile) => {
      await expect(
        store.facts.searchText({ guildId: G1, validity: 'any' }, [hostile], 10),
      ).resolves.toBeInstanceOf(Array);
      await expect(store.conversation.searchText(G1, [hostile], 10)).resolves.toBeInstanceOf(Array);
    },
  );

  it('still finds the real term next to every hostile one', async () => {
    const hits = await store.facts.searchText({ guildId: G1 }, [...HOSTILE, 'chess'], 10);
    expect(hits.map((h) => h.fact.text)).toContain('alice likes chess openings near the river');
    const msgs = await store.conversation.searchText(G1, [...HOSTILE, 'chess'], 10);
    expect(msgs.map((h) => h.message.content)).toContain('who wants to play chess tonight?');
  });

  it('quotes each term, doubles embedded quotes and drops unbindable terms', () => {
    expect(ftsMatchExpression(['chess', 'a"b', 'NEAR'])).toBe('"chess" OR "a""b" OR "NEAR"');
    expect(ftsMatchExpression(['', ' ', '\u0000', 'x\u0000', '\ud800', 'a\udc00'])).toBeNull();
    expect(ftsMatchExpression(['ok', '\ud83d\ude00'])).toBe('"ok" OR "\ud83d\ude00"');
  });

  it('cannot touch other tables through a term', async () => {
    await store.facts.searchText({ guildId: G1 }, ["'; DROP TABLE facts; --"], 5);
    expect((await store.facts.list({ guildId: G1, limit: 10 })).items).toHaveLength(2);
  });
});

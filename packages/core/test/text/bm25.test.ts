import { describe, expect, it } from 'vitest';
import { Bm25Corpus, searchBm25, searchBm25In } from '../../src/text/bm25.js';

describe('BM25 over counted statistics', () => {
  const corpus = [
    { id: 'a', terms: ['roof', 'garden', 'tomato'] },
    { id: 'b', terms: ['roof', 'bee'] },
    { id: 'c', terms: ['cello'] },
    { id: 'd', terms: ['roof', 'roof', 'repair', 'visit', 'week'] },
    { id: 'e', terms: ['garden', 'party'] },
  ];
  const query = ['roof', 'garden', 'cello'];

  it('ranks and scores as the corpus read document by document', () => {
    const totalLength = corpus.reduce((n, d) => n + d.terms.length, 0);
    const docsWith = new Map(query.map((t) => [t, corpus.filter((d) => d.terms.includes(t)).length]));
    const counted = Bm25Corpus.fromCounts({ docs: corpus.length, totalLength, docsWith });
    const candidates = corpus.filter((d) => d.id !== 'e');
    const read = searchBm25(corpus, candidates, query, 10);
    const fromCounts = searchBm25In(counted, candidates, query, 10);
    expect(fromCounts.hits.map((h) => h.id)).toEqual(read.hits.map((h) => h.id));
    expect(fromCounts.hits.map((h) => h.score)).toEqual(read.hits.map((h) => h.score));
    expect(fromCounts.fullMatchScore).toBe(read.fullMatchScore);
    expect(read.hits.map((h) => h.id)).toEqual(['c', 'a', 'b', 'd']);
  });

  it('treats a term missing from the counts as held by no document', () => {
    const counted = Bm25Corpus.fromCounts({ docs: 5, totalLength: 13, docsWith: new Map([['roof', 3]]) });
    const withZero = Bm25Corpus.fromCounts({
      docs: 5,
      totalLength: 13,
      docsWith: new Map([
        ['roof', 3],
        ['garden', 0],
      ]),
    });
    expect(counted.idf('garden')).toBe(withZero.idf('garden'));
    expect(counted.fullMatchScore(['roof', 'garden'])).toBe(withZero.fullMatchScore(['roof', 'garden']));
  });
});

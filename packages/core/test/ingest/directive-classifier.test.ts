import { describe, expect, it } from 'vitest';
import { classifyDirective } from '../../src/ingest/directive-classifier.js';
import { BENIGN, DIRECTIVES } from './directive-corpus.js';

describe('classifyDirective (issue 18 §5)', () => {
  it('the corpus holds at least 100 directive phrasings and 30 benign look-alikes', () => {
    expect(new Set(DIRECTIVES).size).toBeGreaterThanOrEqual(100);
    expect(new Set(BENIGN).size).toBeGreaterThanOrEqual(30);
  });

  it('every directive is a directive', () => {
    expect(DIRECTIVES.filter((t) => !classifyDirective(t).directive)).toEqual([]);
  });

  it('no benign look-alike is a directive', () => {
    expect(
      BENIGN.filter((t) => classifyDirective(t).directive).map((t) => [t, classifyDirective(t).signal]),
    ).toEqual([]);
  });

  it('reads lower case, extra spaces and curly quotes the same', () => {
    for (const t of DIRECTIVES.slice(0, 20)) {
      expect(classifyDirective(t.toLowerCase()).directive, t).toBe(true);
      expect(classifyDirective(`  ${t.replace(/ /g, '   ')}  `).directive, t).toBe(true);
    }
  });

  it('is linear on long hostile input', () => {
    const t = `${'the bot '.repeat(2_000)}x`;
    const start = performance.now();
    classifyDirective(t);
    expect(performance.now() - start).toBeLessThan(1_000);
  });
});

import { describe, expect, it } from 'vitest';
import { summarizeHeuristically } from '../../src/adapters/heuristic/index.js';

const FACTS = [
  'Alice lives in Seattle',
  'Alice works at Acme as a nurse',
  'Alice loves rust programming',
  "Alice's birthday is on March 3",
  "Blue is Alice's favorite color",
  'Alice plays guitar',
  'Alice has a dog named Rex',
];
const words = (s: string): number => s.split(/\s+/).filter((w) => w.length > 0).length;

describe('summarizeHeuristically', () => {
  it.each([5, 8, 12, 20, 40, 120])('stays within %i words', (maxWords) => {
    const text = summarizeHeuristically({ subjectName: 'Alice', facts: FACTS, maxWords });
    expect(words(text)).toBeLessThanOrEqual(maxWords);
    expect(text.length).toBeGreaterThan(0);
  });

  it('folds predicates into one third-person sentence, strongest first', () => {
    const text = summarizeHeuristically({ subjectName: 'Alice', facts: FACTS.slice(0, 3), maxWords: 120 });
    expect(text).toBe('Alice lives in Seattle, works at Acme as a nurse and loves rust programming.');
  });

  it('keeps facts that do not start with the name as their own sentences', () => {
    const text = summarizeHeuristically({ subjectName: 'Alice', facts: FACTS, maxWords: 120 });
    expect(text).toContain("Alice's birthday is on March 3.");
    expect(text).toContain("Blue is Alice's favorite color.");
    expect(text.startsWith('Alice lives in Seattle')).toBe(true);
  });

  it('drops near-duplicates and skips facts that do not fit', () => {
    const text = summarizeHeuristically({
      subjectName: 'Alice',
      facts: [
        'Alice loves jazz',
        'Alice loves jazz.',
        'Alice has an extremely long and detailed history with the violin',
        'Alice plays chess',
      ],
      maxWords: 8,
    });
    expect(text).toBe('Alice loves jazz and plays chess.');
  });

  it('truncates a single over-long fact instead of returning nothing', () => {
    const text = summarizeHeuristically({
      subjectName: 'Alice',
      facts: ['Alice has played the cello in three orchestras'],
      maxWords: 4,
    });
    expect(text).toBe('Alice has played the');
  });

  it('is empty without facts and deterministic with them', () => {
    expect(summarizeHeuristically({ subjectName: 'Alice', facts: [], maxWords: 50 })).toBe('');
    const a = summarizeHeuristically({ subjectName: 'Alice', facts: FACTS, maxWords: 30 });
    expect(summarizeHeuristically({ subjectName: 'Alice', facts: FACTS, maxWords: 30 })).toBe(a);
  });
});

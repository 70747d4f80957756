import { describe, expect, it } from 'vitest';
import { mergeTexts, reconcileHeuristically, restates } from '../../src/adapters/heuristic/index.js';
import type { ReconcileCollision } from '../../src/extraction/task-contracts.js';

const collision = (text: string, existing: readonly string[], candidateIndex = 0): ReconcileCollision => ({
  candidateIndex,
  subjectName: 'Alice',
  text,
  category: 'personal',
  existing: existing.map((t, i) => ({ id: String(i), text: t, category: 'personal' })),
});

/** [candidate, existing facts, expected kind, expected target id] */
const CASES: readonly (readonly [string, readonly string[], string, string | null])[] = [
  ['Alice moved to Seattle', ['Alice lives in Omaha'], 'INVALIDATE', '0'],
  ['Alice quit energy drinks', ['Alice loves energy drinks'], 'INVALIDATE', '0'],
  ['Alice no longer plays league', ['Alice likes jazz', 'Alice plays league'], 'INVALIDATE', '1'],
  ['Alice hates cilantro', ['Alice loves cilantro'], 'INVALIDATE', '0'],
  ['Alice is married', ['Alice is single'], 'INVALIDATE', '0'],
  ['Alice loves Rust', ['Alice loves Rust'], 'NOOP', '0'],
  ['Alice lives in Seattle', ['Alice likes tea', 'Alice lives in Seattle'], 'NOOP', '1'],
  ['Alice really loves Rust', ['Alice loves Rust programming'], 'NOOP', '0'],
  ['Alice was promoted to charge nurse at Acme', ['Alice works at Acme as a nurse'], 'UPDATE', '0'],
  ['Alice loves Rust and Go', ['Alice loves Rust'], 'UPDATE', '0'],
  ['Alice has a dog named Rex who is a corgi', ['Alice has a dog named Rex'], 'UPDATE', '0'],
  ['Alice plays chess', ['Alice lives in Omaha', 'Alice loves jazz'], 'ADD', null],
  ['Alice loves Red Bull', ['Alice quit energy drinks'], 'ADD', null],
  ['Alice moved to Seattle', [], 'ADD', null],
];

describe('reconcileHeuristically', () => {
  it.each(CASES)('%s vs %j → %s', (text, existing, kind, target) => {
    const { decisions } = reconcileHeuristically({ collisions: [collision(text, existing)] });
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ candidateIndex: 0, kind, targetId: target });
    if (kind === 'UPDATE') expect(decisions[0]?.text).toBeTruthy();
    else expect(decisions[0]?.text).toBeNull();
  });

  it('answers every collision, in order, keeping candidate indexes', () => {
    const { decisions } = reconcileHeuristically({
      collisions: [
        collision('Alice moved to Seattle', ['Alice lives in Omaha'], 3),
        collision('Alice loves Rust', ['Alice loves Rust'], 7),
      ],
    });
    expect(decisions.map((d) => [d.candidateIndex, d.kind])).toEqual([
      [3, 'INVALIDATE'],
      [7, 'NOOP'],
    ]);
  });

  it('prefers the contradiction when the candidate announces a change', () => {
    const { decisions } = reconcileHeuristically({
      collisions: [collision('Alice moved to Seattle', ['Alice lives in Seattle', 'Alice lives in Omaha'])],
    });
    expect(decisions[0]).toMatchObject({ kind: 'INVALIDATE', targetId: '1' });
  });

  it('merges an UPDATE: candidate text when it covers the old fact, else both', () => {
    expect(
      mergeTexts('Alice works at Acme as a nurse', 'Alice was promoted to charge nurse at Acme', 'Alice'),
    ).toBe('Alice was promoted to charge nurse at Acme');
    expect(
      mergeTexts(
        'Alice has a dog named Rex who loves fetch',
        'Alice has a dog named Rex who is a corgi',
        'Alice',
      ),
    ).toBe('Alice has a dog named Rex who loves fetch; Alice has a dog named Rex who is a corgi');
  });

  it('restates ignores the subject name and attribution suffix', () => {
    expect(restates('Bob loves hiking (according to Alice)', 'Bob loves hiking', 'Bob')).toBe(true);
    expect(restates('Alice loves hiking in the alps', 'Alice loves hiking', 'Alice')).toBe(false);
  });
});

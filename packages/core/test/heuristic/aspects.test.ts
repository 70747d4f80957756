import { describe, expect, it } from 'vitest';
import { aspectOf, polarityFlip, sameAspect } from '../../src/adapters/heuristic/index.js';

/** [a, b, sameAspect, polarityFlip] */
const PAIRS: readonly (readonly [string, string, boolean, boolean])[] = [
  ['Alice lives in Omaha', 'Alice moved to Seattle', true, true],
  ['Alice lives in Seattle', 'Alice moved to Seattle', true, false],
  ['Alice lives in Seattle', 'Alice is based in Seattle, Washington', true, false],
  ['Alice is from Texas', 'Alice lives in Seattle', false, false],
  ['Alice loves energy drinks', 'Alice quit energy drinks', true, true],
  ['Alice loves energy drinks', 'Alice gave up energy drinks', true, true],
  ['Alice loves Red Bull', 'Alice quit energy drinks', false, false],
  ['Alice likes jazz', 'Alice hates jazz', true, true],
  ['Alice likes jazz', 'Alice loves jazz music', true, false],
  ['Alice plays league', 'Alice no longer plays league', true, true],
  ['Alice loves Rust', 'Alice loves Go', false, false],
  ['Alice works at Acme as a nurse', 'Alice was promoted to charge nurse at Acme', true, false],
  ['Alice works at Acme', 'Alice works at Globex', true, true],
  ['Alice works at Acme', 'Alice quit their job', true, true],
  ['Alice is a teacher', 'Alice is retired', true, true],
  ['Alice studies at MIT', 'Alice graduated from MIT', true, true],
  ['Alice is single', 'Alice is married', true, true],
  ['Alice is engaged', 'Alice has a wedding coming up next month', false, false],
  ['Alice has a dog named Rex', "Alice's dog is called Rex", true, false],
  ['Alice has a dog named Rex', 'Alice has a cat named Tom', false, false],
  ["Alice's name is Sam", 'Alice goes by the name Jay', true, true],
  ["Alice's name is Sam", 'Alice prefers to be called Sam', true, false],
  ['Alice uses she/her pronouns', 'Alice uses they/them pronouns', true, true],
  ["Alice's birthday is on March 3", "Alice's birthday is on May 9", true, true],
  ['Alice is allergic to peanuts', 'Alice is no longer allergic to peanuts', true, true],
  ['Alice is allergic to peanuts', 'Alice is allergic to shellfish', false, false],
  ['Alice is vegan', 'Alice is no longer vegan', true, true],
  ['Alice is vegetarian', 'Alice is vegan', true, true],
  ["Blue is Alice's favorite color", "Alice's favorite color is green", true, true],
  ["Alice's favorite color is blue", "Alice's favorite game is Celeste", false, false],
  ['Bob loves hiking (according to Alice)', 'Bob hates hiking', true, true],
  ["Alice's wife works at Google", 'Alice works at Acme', false, false],
  ['Alice likes the weather', 'Alice went to a concert', false, false],
];

describe('aspects', () => {
  it.each(PAIRS)('%s | %s', (a, b, same, flip) => {
    expect(sameAspect(a, b)).toBe(same);
    expect(sameAspect(b, a)).toBe(same);
    expect(polarityFlip(a, b)).toBe(flip);
    expect(polarityFlip(b, a)).toBe(flip);
  });

  it('names the family and key', () => {
    expect(aspectOf('Alice lives in Seattle')?.family).toBe('residence');
    expect(aspectOf('Alice has a dog named Rex')?.key).toBe('pet:dog');
    expect(aspectOf("Alice's favorite color is blue")?.key).toBe('favorite:color');
    expect(aspectOf('Alice quit smoking')).toMatchObject({ family: 'preference', polarity: -1 });
    expect(aspectOf('Alice went to a concert')).toBeNull();
  });
});

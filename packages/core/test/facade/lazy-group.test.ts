import { describe, expect, it } from 'vitest';
import { lazyGroup } from '../../src/facade/lazy-group.js';

interface Group {
  one(x: number): Promise<number>;
  two(): Promise<string>;
}

describe('lazyGroup', () => {
  it('delegates every listed method to the group once it has started', async () => {
    let starts = 0;
    const group: Group = { one: async (x) => x + 1, two: async () => 'two' };
    const lazy = lazyGroup(async () => {
      starts++;
      return group;
    }, ['one', 'two']);
    expect(starts).toBe(0);
    expect(await lazy.one(1)).toBe(2);
    expect(await lazy.two()).toBe('two');
    expect(Object.keys(lazy).sort()).toEqual(['one', 'two']);
  });

  it('refuses, at compile time, a list that misses a method of the group', () => {
    const group: Group = { one: async (x) => x, two: async () => '' };
    // @ts-expect-error: 'two' is missing from the list
    const partial = lazyGroup(async () => group, ['one']);
    expect(Object.keys(partial)).toEqual(['one']);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { WrittenVersions } from '../src/written-versions.js';

const doc = (id: string, ep: string) => ({ _id: id, ep });

describe('remembered versions', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('makes room by forgetting the oldest entry; one remembered again counts as new', () => {
    const v = new WrittenVersions({ max: 2 });
    v.remember('c', doc('a', '1'));
    v.remember('c', doc('b', '1'));
    v.remember('c', doc('a', '2'));
    v.remember('c', doc('d', '1'));
    expect([...v.get('c', ['a', 'b', 'd']).keys()]).toEqual(['a', 'd']);
    expect(v.get('c', ['a']).get('a')).toEqual(doc('a', '2'));
  });

  it('forgets an entry older than its time to live', () => {
    vi.useFakeTimers();
    const v = new WrittenVersions({ ttlMs: 1_000 });
    v.remember('c', doc('a', '1'));
    vi.advanceTimersByTime(999);
    expect(v.get('c', ['a']).size).toBe(1);
    vi.advanceTimersByTime(2);
    expect(v.get('c', ['a']).size).toBe(0);
  });
});

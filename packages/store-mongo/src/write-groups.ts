import { Binary } from 'mongodb';

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (a instanceof Binary || b instanceof Binary)
    return (
      a instanceof Binary &&
      b instanceof Binary &&
      a.sub_type === b.sub_type &&
      Buffer.from(a.buffer).equals(Buffer.from(b.buffer))
    );
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => same(x, b[i]));
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) => Object.hasOwn(b, k) && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/**
 * The top-level fields `after` changes relative to `before` (our schema's field names only; `_id`
 * and the version stamp excluded), for a `$set`.
 */
export function changedFields(before: object, after: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const b = before as Record<string, unknown>;
  for (const [k, v] of Object.entries(after)) {
    if (k === '_id' || k === 'ep') continue;
    if (!Object.hasOwn(b, k) || !same(b[k], v)) out[k] = v;
  }
  return out;
}

/** A canonical key for a `$set` document: equal keys mean one updateMany can write them all. */
export function setKey(set: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(set)
      .sort()
      .map((k) => [k, set[k]]),
    (_key, value: unknown) => {
      if (value instanceof Binary)
        return { $binary: Buffer.from(value.buffer).toString('base64'), t: value.sub_type };
      return value;
    },
  );
}

/** Splits items into groups that share `key`, each at most `max` long. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string, max: number): T[][] {
  const groups = new Map<string, T[][]>();
  for (const item of items) {
    const k = key(item);
    const chunks = groups.get(k) ?? [[]];
    let last = chunks[chunks.length - 1] as T[];
    if (last.length >= max) {
      last = [];
      chunks.push(last);
    }
    last.push(item);
    groups.set(k, chunks);
  }
  return [...groups.values()].flat();
}

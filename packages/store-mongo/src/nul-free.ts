import type { Collection, Document } from 'mongodb';

/**
 * Stored strings never contain U+0000: FerretDB on PostgreSQL keeps documents as jsonb, which
 * refuses the NUL character (SQLSTATE 22P05), and C-string based tools truncate at it. Every
 * string going to the server (documents, filters, updates, pipelines) is encoded, every string
 * coming back is decoded:
 *
 *   U+0000 → U+FFFF '0'      U+FFFF → U+FFFF '1'      everything else unchanged
 *
 * U+FFFF is a noncharacter (never interchanged as text), so strings without it or NUL, i.e. all
 * real ones, are stored as they are. The code is prefix-free and applied character by
 * character, so equality, `$in` and prefix ranges on encoded values match exactly what they
 * match on the decoded ones.
 */
const ESC = '\uffff';
const ENCODED = /\uffff[01]/g;
const TO_CODE: Readonly<Record<string, string>> = { '\u0000': `${ESC}0`, [ESC]: `${ESC}1` };
const FROM_CODE: Readonly<Record<string, string>> = { [`${ESC}0`]: '\u0000', [`${ESC}1`]: ESC };

export function encodeString(s: string): string {
  if (!s.includes('\u0000') && !s.includes(ESC)) return s;
  let out = '';
  for (const c of s) out += TO_CODE[c] ?? c;
  return out;
}

export function decodeString(s: string): string {
  return s.includes(ESC) ? s.replace(ENCODED, (c) => FROM_CODE[c] as string) : s;
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Maps every string (values and keys) of plain objects and arrays; BSON values (Binary, Date,
 * ObjectId, Long) are kept. Returns the input itself when nothing changes, so documents are
 * only copied when they hold a NUL (on write) or an escape (on read).
 */
function mapStrings<T>(value: T, f: (s: string) => string): T {
  if (typeof value === 'string') return f(value) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v = mapStrings(value[i], f);
      if (v !== value[i]) {
        out ??= value.slice();
        out[i] = v;
      }
    }
    return (out ?? value) as T;
  }
  if (!isPlain(value)) return value;
  let out: Record<string, unknown> | null = null;
  const src = value as Record<string, unknown>;
  for (const key of Object.keys(src)) {
    const k = f(key);
    const v = mapStrings(src[key], f);
    if (k !== key || v !== src[key]) {
      if (out === null) {
        out = Object.create(Object.getPrototypeOf(src)) as Record<string, unknown>;
        for (const k2 of Object.keys(src)) out[k2] = src[k2];
      }
      if (k !== key) delete out[key];
      out[k] = v;
    }
  }
  return (out ?? value) as T;
}

export const encodeValue = <T>(v: T): T => mapStrings(v, encodeString);
export const decodeValue = <T>(v: T): T => mapStrings(v, decodeString);

/**
 * The write methods of a driver `Collection`, by the index of their options argument (the filter,
 * the update, the document or the bulk operations come before it).
 */
export const WRITE_METHODS: Readonly<Record<string, number>> = {
  insertOne: 1,
  insertMany: 1,
  updateOne: 2,
  updateMany: 2,
  replaceOne: 2,
  deleteOne: 1,
  deleteMany: 1,
  bulkWrite: 1,
  findOneAndUpdate: 2,
  findOneAndReplace: 2,
  findOneAndDelete: 1,
};

/** Methods whose arguments go to the server: every argument but the options is encoded. */
const WRITE_ARGS: Readonly<Record<string, number>> = {
  ...WRITE_METHODS,
  countDocuments: 1,
  findOne: 1,
  find: 1,
  aggregate: 1,
  distinct: 2,
};
const RESULT_DECODED = new Set([
  'findOne',
  'distinct',
  'findOneAndUpdate',
  'findOneAndReplace',
  'findOneAndDelete',
]);
const CURSOR_DECODED = new Set(['find', 'aggregate']);

/** A view of `coll` that stores and reads NUL-free strings (see above); other members pass through. */
export function nulFree<D extends Document>(coll: Collection<D>): Collection<D> {
  return new Proxy(coll, {
    get(target, prop, receiver) {
      const member = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop !== 'string' || typeof member !== 'function' || !(prop in WRITE_ARGS)) return member;
      const encoded = WRITE_ARGS[prop] as number;
      const fn = member as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        const sent = args.map((a, i) => (i < encoded ? encodeValue(a) : a));
        const result = fn.apply(target, sent);
        if (CURSOR_DECODED.has(prop))
          return (result as { map(f: (d: unknown) => unknown): unknown }).map(decodeValue);
        if (RESULT_DECODED.has(prop)) return (result as Promise<unknown>).then(decodeValue);
        return result;
      };
    },
  });
}

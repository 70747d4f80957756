import { DELETE, type GuardOptions, type Outcome } from './guard-types.js';
import type { MongoContext } from './mongo-context.js';
import type { BucketDoc, QueueItem } from './mongo-conversation-docs.js';

/** A bucket as the queue code sees it: decoded items. */
export interface Bucket {
  readonly _id: string;
  readonly ep: string;
  readonly guildId: string;
  readonly subjectKey: string;
  readonly items: readonly QueueItem[];
}

const ms = (d: Date | null) => (d === null ? null : d.getTime());
const date = (n: number | null) => (n === null ? null : new Date(n));

/**
 * Items are stored as compact JSON strings (`[id, at, st, n, next, own, until, el, ins, rel]`):
 * FerretDB converts every nested sub-document between BSON and JSON on each read and write, and
 * an array of strings is an order of magnitude cheaper there than an array of objects.
 */
export function encodeItem(it: QueueItem): string {
  return JSON.stringify([
    it.id,
    it.at.getTime(),
    it.st,
    it.n,
    ms(it.next),
    it.own,
    ms(it.until),
    it.el ? 1 : 0,
    it.ins.getTime(),
    it.rel ? 1 : 0,
  ]);
}

export function decodeItem(s: string): QueueItem {
  const [id, at, st, n, next, own, until, el, ins, rel] = JSON.parse(s) as [
    string,
    number,
    string,
    number,
    number | null,
    string | null,
    number | null,
    number,
    number,
    number,
  ];
  const item: QueueItem = {
    id,
    at: new Date(at),
    st,
    n,
    next: date(next),
    own,
    until: date(until),
    el: el === 1,
    ins: new Date(ins),
  };
  return rel === 1 ? { ...item, rel: true } : item;
}

export function decodeBucket(d: BucketDoc): Bucket {
  return {
    _id: d._id,
    ep: d.ep,
    guildId: d.guildId,
    subjectKey: d.subjectKey,
    items: d.items.map(decodeItem),
  };
}

function encodeBucket(b: Bucket): BucketDoc {
  return {
    _id: b._id,
    ep: b.ep,
    guildId: b.guildId,
    subjectKey: b.subjectKey,
    items: b.items.map(encodeItem),
  };
}

export async function findBuckets(ctx: MongoContext, filter: object): Promise<Bucket[]> {
  return (await ctx.c.buckets.find(filter, ctx.readOpts()).toArray()).map((d) =>
    decodeBucket(d as BucketDoc),
  );
}

export async function bucketsById(ctx: MongoContext, keys: readonly string[]): Promise<Map<string, Bucket>> {
  const found = await ctx.readMany(ctx.c.buckets, keys);
  return new Map([...found].map(([k, d]) => [k, decodeBucket(d)]));
}

type BucketChange = (b: Bucket | null, key: string) => Bucket | typeof DELETE | null;

function decodeOutcome(o: Outcome<BucketDoc>): Outcome<Bucket> {
  return {
    before: o.before ? decodeBucket(o.before) : null,
    after: o.after ? decodeBucket(o.after) : null,
    changed: o.changed,
  };
}

/** Guarded writes of buckets (see doc-guard.ts), in decoded form. */
export async function changeBuckets(
  ctx: MongoContext,
  keys: readonly string[],
  change: BucketChange,
  options: { beforeWrite?: (before: Bucket) => Promise<void> } = {},
): Promise<Map<string, Outcome<Bucket>>> {
  // A key's bucket is written by its lease holder: the version this process wrote last is
  // usually still current, so it is not read again (see GuardOptions.reuseWritten).
  const guardOptions: GuardOptions<BucketDoc> = options.beforeWrite
    ? {
        reuseWritten: true,
        beforeWrite: (before) => (options.beforeWrite as (b: Bucket) => Promise<void>)(decodeBucket(before)),
      }
    : { reuseWritten: true };
  const out = await ctx.guard.mutateMany(
    ctx.c.buckets,
    keys,
    (d, key) => {
      const next = change(d ? decodeBucket(d) : null, key);
      return next === null || next === DELETE ? next : encodeBucket(next);
    },
    guardOptions,
  );
  return new Map([...out].map(([k, o]) => [k, decodeOutcome(o)]));
}

export async function changeBucket(
  ctx: MongoContext,
  key: string,
  change: BucketChange,
  options: { beforeWrite?: (before: Bucket) => Promise<void> } = {},
): Promise<Outcome<Bucket>> {
  return (await changeBuckets(ctx, [key], change, options)).get(key) as Outcome<Bucket>;
}

import type { BatchKey } from '@permafrost/core';
import { DELETE } from './guard-types.js';
import { type MongoContext, WHOLE_READ_BATCH } from './mongo-context.js';
import type { LeaseDoc } from './mongo-conversation-docs.js';
import { docKey, finite, requireId, requireString, validDate } from './mongo-keys.js';

export const leaseKey = (guildId: string, subjectKey: string): string => docKey(guildId, subjectKey);

/**
 * Per-(guild, key) batch leases. The lease is the document at `leaseKey`; taking, renewing,
 * releasing and expiring it are guarded writes (doc-guard.ts), so of two processes racing for a
 * free or expired lease exactly one wins on MongoDB and on FerretDB alike: acquiring a free key
 * is an insert (E11000 for the loser), taking over an expired one needs the version token of the
 * document version that was seen expired.
 */
export class MongoLeases {
  readonly #ctx: MongoContext;

  constructor(ctx: MongoContext) {
    this.#ctx = ctx;
  }

  /** Takes the lease if it is free, expired or already ours. */
  async take(key: BatchKey, owner: string, now: Date, leaseMs: number): Promise<boolean> {
    const guildId = requireId(key.guildId, 'guildId');
    const subjectKey = requireId(key.subjectKey, 'subjectKey');
    const who = requireString(owner, 'owner');
    const t = validDate(now, 'now').getTime();
    const until = new Date(t + finite(leaseMs, 'leaseMs'));
    const outcome = await this.#ctx.guard.mutate(
      this.#ctx.c.leases,
      leaseKey(guildId, subjectKey),
      (current) => {
        if (current && current.owner !== who && current.until.getTime() > t) return null;
        return { _id: '', ep: '', guildId, subjectKey, owner: who, until };
      },
    );
    return outcome.changed;
  }

  /** Extends our lease; false when it is not ours (taken over or released). */
  async renew(key: BatchKey, owner: string, now: Date, leaseMs: number): Promise<Date | null> {
    const until = new Date(validDate(now, 'now').getTime() + finite(leaseMs, 'leaseMs'));
    const who = requireString(owner, 'owner');
    const outcome = await this.#ctx.guard.mutate(
      this.#ctx.c.leases,
      leaseKey(requireString(key.guildId, 'guildId'), requireString(key.subjectKey, 'subjectKey')),
      (current) => (current && current.owner === who ? { ...current, until } : null),
    );
    return outcome.changed ? until : null;
  }

  async release(key: BatchKey, owner: string): Promise<void> {
    const who = requireString(owner, 'owner');
    await this.#ctx.guard.mutate(
      this.#ctx.c.leases,
      leaseKey(requireString(key.guildId, 'guildId'), requireString(key.subjectKey, 'subjectKey')),
      (current) => (current && current.owner === who ? DELETE : null),
    );
  }

  /** Drops leases that expired at or before `now`. */
  async dropExpired(now: Date): Promise<number> {
    const t = now.getTime();
    const docs = await this.#ctx.c.leases
      .find({ until: { $lte: now } }, { projection: { _id: 1 }, batchSize: WHOLE_READ_BATCH })
      .toArray();
    const out = await this.#ctx.guard.mutateMany(
      this.#ctx.c.leases,
      docs.map((d) => d._id),
      (current) => (current && current.until.getTime() <= t ? DELETE : null),
    );
    return [...out.values()].filter((o) => o.changed).length;
  }

  /** Keys (as `leaseKey`) whose lease is live at `now`. */
  async liveKeys(now: Date): Promise<Set<string>> {
    const docs = await this.#ctx.c.leases
      .find({ until: { $gt: now } }, { projection: { _id: 1 }, batchSize: WHOLE_READ_BATCH })
      .toArray();
    return new Set(docs.map((d) => d._id));
  }
}

export type { LeaseDoc };

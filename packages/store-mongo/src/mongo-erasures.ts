import type { Erasure, ErasureInput } from '@permafrost/core/store';
import type { MongoContext } from './mongo-context.js';
import { docKey, requireId, requireString, validDate } from './mongo-keys.js';

const padded = (generation: number) => String(generation).padStart(12, '0');

/**
 * The erasure log (see GovernanceStore.recordErasure). The counter is a guarded document, so
 * concurrent purges in several processes still get distinct, increasing generations; the log
 * row is inserted after the counter moved (an interrupted record leaves a gap, never a duplicate).
 */
export class MongoErasureLog {
  readonly #ctx: MongoContext;

  constructor(ctx: MongoContext) {
    this.#ctx = ctx;
  }

  async record(input: ErasureInput): Promise<number> {
    await this.#ctx.enter();
    const g = requireId(input.guildId, 'guildId');
    const userId = input.userId === null ? null : requireId(input.userId, 'userId');
    const messageId = input.messageId === null ? null : requireId(input.messageId, 'messageId');
    const at = validDate(input.at, 'at');
    const outcome = await this.#ctx.guard.mutate(this.#ctx.c.erasureCounters, docKey(g), (current) => ({
      _id: docKey(g),
      ep: current?.ep ?? '',
      guildId: g,
      generation: (current?.generation ?? 0) + 1,
    }));
    const generation = outcome.after?.generation ?? 1;
    const id = docKey(g, padded(generation));
    await this.#ctx.upsert(this.#ctx.c.erasures, id, { guildId: g, generation, userId, messageId, at });
    return generation;
  }

  async since(guildId: string, generation: number): Promise<{ generation: number; erasures: Erasure[] }> {
    await this.#ctx.enter();
    const g = requireString(guildId, 'guildId');
    // Both reads at once (one after another inside a transaction). A record is inserted after
    // its counter moved, so the generation answered is the newer of the counter and the records.
    const [counters, docs] = await this.#ctx.all(
      () => this.#ctx.readMany(this.#ctx.c.erasureCounters, [docKey(g)]),
      () =>
        this.#ctx.c.erasures
          .find(
            { guildId: { $eq: g }, generation: { $gt: Number(generation) } },
            { sort: { generation: 1 }, ...this.#ctx.readOpts() },
          )
          .toArray(),
    );
    const counted = counters.get(docKey(g))?.generation ?? 0;
    return {
      generation: Math.max(counted, ...docs.map((d) => d.generation)),
      erasures: docs.map((d) => ({
        generation: d.generation,
        userId: d.userId,
        messageId: d.messageId,
        at: d.at,
      })),
    };
  }

  async prune(before: Date): Promise<number> {
    await this.#ctx.enter();
    this.#ctx.wrote('erasures');
    const r = await this.#ctx.c.erasures.deleteMany(
      { at: { $lt: validDate(before, 'before') } },
      this.#ctx.opts(),
    );
    return r.deletedCount;
  }
}

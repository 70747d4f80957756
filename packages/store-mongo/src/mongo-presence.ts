import type { ActiveMode } from '@permafrost/core/store';
import { DELETE } from './guard-types.js';
import type { MongoContext } from './mongo-context.js';
import type { ModeDoc } from './mongo-conversation-docs.js';
import { docKey, finite, requireId, requireString, validDate } from './mongo-keys.js';

type ModeKey = { readonly instanceId: string; readonly guildId: string; readonly channelId: string };
const modeKey = (k: ModeKey) =>
  docKey(
    requireId(k.instanceId, 'instanceId'),
    requireId(k.guildId, 'guildId'),
    requireId(k.channelId, 'channelId'),
  );

function fromModeDoc(d: ModeDoc): ActiveMode {
  return {
    instanceId: d.instanceId,
    guildId: d.guildId,
    channelId: d.channelId,
    mode: d.mode,
    startedAt: d.startedAt,
    lastActiveAt: d.lastActiveAt,
  };
}

/**
 * Multi-instance bot state: reply claims (one instance answers a message; expired claims can be
 * retaken) and persistent "active conversation" modes. Both are guarded documents keyed by their
 * natural key, so two instances racing for one claim cannot both get it.
 */
export class MongoPresence {
  readonly #ctx: MongoContext;

  constructor(ctx: MongoContext) {
    this.#ctx = ctx;
  }

  async tryClaim(input: {
    readonly guildId: string;
    readonly channelId: string;
    readonly messageId: string;
    readonly owner: string;
    readonly now: Date;
    readonly ttlMs: number;
  }): Promise<boolean> {
    await this.#ctx.enter();
    const guildId = requireId(input.guildId, 'guildId');
    const channelId = requireId(input.channelId, 'channelId');
    const messageId = requireId(input.messageId, 'messageId');
    const owner = requireString(input.owner, 'owner');
    const t = validDate(input.now, 'now').getTime();
    const until = new Date(t + finite(input.ttlMs, 'ttlMs'));
    const outcome = await this.#ctx.guard.mutate(
      this.#ctx.c.replyClaims,
      docKey(guildId, channelId, messageId),
      (c) =>
        c && c.owner !== owner && c.until.getTime() > t
          ? null
          : { _id: '', ep: '', guildId, channelId, messageId, owner, until },
    );
    return outcome.changed;
  }

  async releaseClaim(input: {
    readonly guildId: string;
    readonly channelId: string;
    readonly messageId: string;
    readonly owner: string;
  }): Promise<boolean> {
    await this.#ctx.enter();
    const owner = requireString(input.owner, 'owner');
    const key = docKey(
      requireId(input.guildId, 'guildId'),
      requireId(input.channelId, 'channelId'),
      requireId(input.messageId, 'messageId'),
    );
    const outcome = await this.#ctx.guard.mutate(this.#ctx.c.replyClaims, key, (c) =>
      c && c.owner === owner ? DELETE : null,
    );
    return outcome.changed;
  }

  async upsertMode(mode: ActiveMode): Promise<void> {
    await this.#ctx.enter();
    const doc: ModeDoc = {
      _id: modeKey(mode),
      ep: '',
      instanceId: mode.instanceId,
      guildId: mode.guildId,
      channelId: mode.channelId,
      mode: requireString(mode.mode, 'mode'),
      startedAt: validDate(mode.startedAt, 'startedAt'),
      lastActiveAt: validDate(mode.lastActiveAt, 'lastActiveAt'),
    };
    await this.#ctx.guard.mutate(this.#ctx.c.modes, doc._id, () => doc);
  }

  async touchMode(key: ModeKey, at: Date): Promise<boolean> {
    await this.#ctx.enter();
    const when = validDate(at, 'at');
    const outcome = await this.#ctx.guard.mutate(this.#ctx.c.modes, modeKey(key), (m) =>
      m ? { ...m, lastActiveAt: when } : null,
    );
    return outcome.changed;
  }

  async removeMode(key: ModeKey): Promise<boolean> {
    await this.#ctx.enter();
    const outcome = await this.#ctx.guard.mutate(this.#ctx.c.modes, modeKey(key), (m) => (m ? DELETE : null));
    return outcome.changed;
  }

  async listModes(options: {
    readonly activeSince: Date;
    readonly instanceId?: string;
  }): Promise<ActiveMode[]> {
    await this.#ctx.enter();
    const filter = {
      lastActiveAt: { $gte: validDate(options.activeSince, 'activeSince') },
      ...(options.instanceId === undefined
        ? {}
        : { instanceId: { $eq: requireString(options.instanceId, 'instanceId') } }),
    };
    const docs = await this.#ctx.c.modes
      .find(filter, { sort: { lastActiveAt: -1, _id: 1 }, ...this.#ctx.readOpts() })
      .toArray();
    return docs.map((d) => fromModeDoc(d as ModeDoc));
  }
}

import type { EmulatorCore } from './core.js';
import { invalidBody } from './http-errors.js';
import { clampInt } from './message-paging.js';
import { param } from './rest-meta.js';
import type { RestContext, Router } from './router.js';
import { ChannelTypes, isThreadType } from './seed-payloads.js';
import { compareSnowflakes } from './snowflake.js';
import type { ApiChannel } from './types.js';

const isArchived = (c: ApiChannel) => isThreadType(c.type) && c.thread_metadata?.archived === true;

/**
 * Thread listings: a guild's active threads, and a channel's archived public and private threads
 * (newest archive first, paged by `before` = an ISO timestamp, `has_more` when more remain).
 * Thread membership is not emulated, so the active listing's `members` and the joined-private
 * listing are always empty.
 */
export function registerThreadRoutes(router: Router, core: EmulatorCore): void {
  const { world } = core;
  const threadsOf = (guildId: string) =>
    world
      .guild(guildId)
      .channelIds.map((id) => world.channel(id))
      .filter((c) => isThreadType(c.type));
  const archivedOf = (ctx: RestContext, priv: boolean) => {
    const parent = world.channel(param(ctx, 'channelId'));
    const limit = clampInt(ctx.query.get('limit'), 50, 1, 100);
    const rawBefore = ctx.query.get('before');
    const before = rawBefore === null ? null : Date.parse(rawBefore);
    if (before !== null && Number.isNaN(before)) throw invalidBody('before: must be an ISO8601 timestamp');
    const archivedAt = (c: ApiChannel) => Date.parse(c.thread_metadata?.archive_timestamp ?? '');
    const matching = threadsOf(parent.guild_id ?? '')
      .filter((c) => c.parent_id === parent.id && isArchived(c))
      .filter((c) => (c.type === ChannelTypes.PrivateThread) === priv)
      .filter((c) => before === null || archivedAt(c) < before)
      .sort((a, b) => archivedAt(b) - archivedAt(a) || compareSnowflakes(b.id, a.id));
    return {
      status: 200,
      body: { threads: matching.slice(0, limit), members: [], has_more: matching.length > limit },
    };
  };

  router
    .add('GET', '/guilds/:guildId/threads/active', (ctx) => ({
      status: 200,
      body: {
        threads: threadsOf(world.guild(param(ctx, 'guildId')).id).filter((c) => !isArchived(c)),
        members: [],
      },
    }))
    .add('GET', '/channels/:channelId/threads/archived/public', (ctx) => archivedOf(ctx, false))
    .add('GET', '/channels/:channelId/threads/archived/private', (ctx) => archivedOf(ctx, true))
    .add('GET', '/channels/:channelId/users/@me/threads/archived/private', (ctx) => {
      world.channel(param(ctx, 'channelId'));
      return { status: 200, body: { threads: [], members: [], has_more: false } };
    });
}

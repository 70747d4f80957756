import { type EmulatorCore, storeBotMessage } from './core.js';
import { ApiError } from './http-errors.js';
import { clampInt, pageMessages, restMessage } from './message-paging.js';
import { EPHEMERAL } from './messages.js';
import { asObject, param } from './rest-meta.js';
import type { RestContext, Router } from './router.js';
import { isThreadType } from './seed-payloads.js';
import { compareSnowflakes } from './snowflake.js';
import type { ApiMessage, MessageBody } from './types.js';

/** Channel, message, typing and guild/member routes. */
export function registerChannelRoutes(router: Router, core: EmulatorCore): void {
  const { world } = core;
  const messageIn = (ctx: RestContext): ApiMessage => {
    const channel = world.channel(param(ctx, 'channelId'));
    const message = world.message(param(ctx, 'messageId'));
    if (message.channel_id !== channel.id || (message.flags & EPHEMERAL) !== 0)
      throw new ApiError(404, 10008, 'Unknown Message');
    return message;
  };
  const ownMessage = (ctx: RestContext): ApiMessage => {
    const message = messageIn(ctx);
    if (message.author.id !== world.botUser.id)
      throw new ApiError(403, 50005, 'Cannot edit a message authored by another user');
    return message;
  };

  router
    .add('GET', '/channels/:channelId', (ctx) => ({
      status: 200,
      body: world.channel(param(ctx, 'channelId')),
    }))
    .add('GET', '/channels/:channelId/messages', (ctx) => {
      const channel = world.channel(param(ctx, 'channelId'));
      return { status: 200, body: pageMessages(world, channel.id, ctx.query) };
    })
    .add('GET', '/channels/:channelId/messages/:messageId', (ctx) => ({
      status: 200,
      body: restMessage(messageIn(ctx)),
    }))
    .add('POST', '/channels/:channelId/messages', (ctx) => {
      const channel = world.channel(param(ctx, 'channelId'));
      const body: MessageBody = asObject(ctx.body ?? {});
      validateSendable(body, ctx.files.length);
      const message = core.factory.fromBot(channel.id, body, ctx.files, {
        flags: Number(body.flags ?? 0) & ~EPHEMERAL,
      });
      return { status: 200, body: storeBotMessage(core, message, false) };
    })
    .add('PATCH', '/channels/:channelId/messages/:messageId', (ctx) => {
      const message = ownMessage(ctx);
      const body: MessageBody = asObject(ctx.body ?? {});
      if (typeof body.content === 'string' && body.content.length > 2000) throw contentTooLong();
      core.factory.applyEdit(message, body, ctx.files);
      core.publish.messageUpdate(message);
      core.notifier.notify();
      return { status: 200, body: message };
    })
    .add('DELETE', '/channels/:channelId/messages/:messageId', (ctx) => {
      const message = messageIn(ctx);
      world.deleteMessage(message.id);
      core.publish.messageDelete(message);
      core.notifier.notify();
      return { status: 204 };
    })
    .add('POST', '/channels/:channelId/typing', (ctx) => {
      world.channel(param(ctx, 'channelId'));
      return { status: 204 };
    })
    .add('GET', '/guilds/:guildId', (ctx) => {
      const full = world.guildCreatePayload(world.guild(param(ctx, 'guildId')).id);
      const { channels: _c, threads: _t, members: _m, presences: _p, voice_states: _v, ...guild } = full;
      return { status: 200, body: guild };
    })
    .add('GET', '/guilds/:guildId/channels', (ctx) => {
      // Discord lists the guild's channels without threads (those have their own routes).
      const guild = world.guild(param(ctx, 'guildId'));
      const channels = guild.channelIds.map((id) => world.channel(id)).filter((c) => !isThreadType(c.type));
      return { status: 200, body: channels };
    })
    .add('GET', '/guilds/:guildId/roles', (ctx) => ({
      status: 200,
      body: world.guild(param(ctx, 'guildId')).roles,
    }))
    .add('GET', '/guilds/:guildId/members', (ctx) => {
      const guild = world.guild(param(ctx, 'guildId'));
      const limit = clampInt(ctx.query.get('limit'), 1, 1, 1000);
      const after = ctx.query.get('after') ?? '0';
      const members = world
        .sortedMembers(guild.id)
        .filter((m) => compareSnowflakes(m.userId, after) > 0)
        .slice(0, limit)
        .map((m) => world.memberPayload(guild.id, m.userId));
      return { status: 200, body: members };
    })
    .add('GET', '/guilds/:guildId/members/search', (ctx) => {
      const guild = world.guild(param(ctx, 'guildId'));
      const query = (ctx.query.get('query') ?? '').toLowerCase();
      const limit = clampInt(ctx.query.get('limit'), 1, 1, 1000);
      const members = world.sortedMembers(guild.id).filter((m) => {
        const user = world.user(m.userId);
        return [user.username, user.global_name, m.nick].some((n) => n?.toLowerCase().startsWith(query));
      });
      return {
        status: 200,
        body: members.slice(0, limit).map((m) => world.memberPayload(guild.id, m.userId)),
      };
    })
    .add('GET', '/guilds/:guildId/members/:userId', (ctx) => {
      const guildId = world.guild(param(ctx, 'guildId')).id;
      return {
        status: 200,
        body: world.memberPayload(guildId, world.member(guildId, param(ctx, 'userId')).userId),
      };
    });
}

export const contentTooLong = (): ApiError =>
  new ApiError(400, 50035, 'Invalid Form Body', {
    content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] },
  });

/** Rejects what Discord rejects: empty messages and content over 2000 characters. */
export function validateSendable(body: MessageBody, fileCount: number): void {
  const content = typeof body.content === 'string' ? body.content : '';
  if (content.length > 2000) throw contentTooLong();
  const nonEmpty = (value: unknown): boolean => Array.isArray(value) && value.length > 0;
  const hasSomething =
    content.length > 0 ||
    fileCount > 0 ||
    nonEmpty(body.embeds) ||
    nonEmpty(body.components) ||
    nonEmpty(body.sticker_ids) ||
    body.poll != null;
  if (!hasSomething) throw new ApiError(400, 50006, 'Cannot send an empty message');
}

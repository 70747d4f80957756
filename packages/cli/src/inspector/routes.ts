import type { IncomingMessage, ServerResponse } from 'node:http';
import { type FactHistoryEntry, type Memory, MemoryError } from '@permafrost/core';
import { loadGuildView } from './guild-view.js';
import { seg } from './html.js';
import { endOfDay, originAllowed, readForm, redirect, send, sendText, tokenMatches } from './http-util.js';
import { usageOfBot, usageOfProcess } from './model-usage.js';
import { chainOf, factPage } from './pages/fact.js';
import { guildPage } from './pages/guild.js';
import { guildsPage } from './pages/guilds.js';
import { memberPage } from './pages/member.js';
import { metricsPage } from './pages/metrics.js';
import { searchPage } from './pages/search.js';

export interface RouteContext {
  readonly memory: Memory;
  readonly listGuilds: () => Promise<string[]>;
  /** null: read-only server (admin routes answer 404). */
  readonly adminToken: string | null;
  readonly port: () => number;
  /** The bot's Prometheus endpoint for model usage (loopback), or null. */
  readonly metricsUrl: URL | null;
}

const HTML = 'text/html; charset=utf-8';
const MAX_QUERY = 2_000;

async function getPage(ctx: RouteContext, parts: readonly string[], url: URL, res: ServerResponse) {
  const admin = ctx.adminToken !== null;
  const { memory } = ctx;
  if (parts.length === 1 && parts[0] === '') {
    const guilds = await ctx.listGuilds();
    const stats = await Promise.all(guilds.map((guildId) => memory.stats({ guildId })));
    return send(res, 200, HTML, guildsPage(stats, admin));
  }
  const [g, guildId, kind, id, extra] = parts;
  if (g !== 'g' || guildId === undefined || extra !== undefined) return sendText(res, 404, 'not found');
  if (!(await ctx.listGuilds()).includes(guildId)) return sendText(res, 404, 'no such guild');
  if (kind === undefined) return send(res, 200, HTML, guildPage(await loadGuildView(memory, guildId), admin));
  if (kind === 'm' && id !== undefined) {
    const view = await loadGuildView(memory, guildId);
    const member = view.members.find((m) => m.userId === id);
    if (!member) return sendText(res, 404, 'no such member');
    const edges = member.optedOut ? [] : await memory.graph.relationsOf({ guildId, userId: id, limit: 40 });
    const asOf = endOfDay(url.searchParams.get('asOf'));
    const all = url.searchParams.get('all') === '1';
    return send(res, 200, HTML, memberPage({ view, member, edges, asOf, all, admin }));
  }
  if (kind === 'f' && id !== undefined) {
    const view = await loadGuildView(memory, guildId);
    const chain = chainOf(view, id);
    if (chain.length === 0) return sendText(res, 404, 'no such fact (or its member opted out)');
    const history = new Map<string, readonly FactHistoryEntry[]>();
    for (const f of chain) history.set(f.id, await memory.facts.history({ guildId, factId: f.id }));
    return send(res, 200, HTML, factPage(view, id, chain, history, admin));
  }
  if (kind === 'search' && id === undefined) {
    const view = await loadGuildView(memory, guildId);
    const query = (url.searchParams.get('q') ?? '').slice(0, MAX_QUERY);
    const text = query.trim();
    // "As seen from" a channel: the reads take it as their audience (what that channel may see);
    // without it the inspector shows the operator's guild-wide view.
    const channel = (url.searchParams.get('channel') ?? '').trim().slice(0, 128);
    const audience = /^[\w-]+$/.test(channel) ? { audience: { channelId: channel } } : {};
    const [recall, messages] = text
      ? await Promise.all([
          memory.recall({ guildId, text, topK: 20, maxPerSubject: 20, scope: 'guild', ...audience }),
          memory.conversation.search({ guildId, text, limit: 20, ...audience }),
        ])
      : [null, null];
    return send(
      res,
      200,
      HTML,
      searchPage({ view, query, channel: 'audience' in audience ? channel : '', recall, messages, admin }),
    );
  }
  if (kind === 'metrics' && id === undefined) {
    const [stats, usage] = await Promise.all([
      memory.stats({ guildId }),
      ctx.metricsUrl ? usageOfBot(ctx.metricsUrl) : memory.ops.metrics().then(usageOfProcess),
    ]);
    return send(res, 200, HTML, metricsPage(stats, usage, admin));
  }
  return sendText(res, 404, 'not found');
}

async function postAction(
  ctx: RouteContext,
  parts: readonly string[],
  req: IncomingMessage,
  res: ServerResponse,
) {
  if (ctx.adminToken === null)
    return sendText(res, 404, 'admin actions are not enabled (start with --admin)');
  if (!originAllowed(req, ctx.port())) return sendText(res, 403, 'cross-origin request refused');
  const form = await readForm(req);
  if (!form) return sendText(res, 400, 'expected a small urlencoded form');
  if (!tokenMatches(form.get('token'), ctx.adminToken)) return sendText(res, 403, 'wrong admin token');
  const [g, guildId, kind, id, action, extra] = parts;
  if (g !== 'g' || guildId === undefined || id === undefined || extra !== undefined)
    return sendText(res, 404, 'not found');
  if (!(await ctx.listGuilds()).includes(guildId)) return sendText(res, 404, 'no such guild');
  const { memory } = ctx;
  const back = `/g/${seg(guildId)}/${kind === 'm' ? 'm' : 'f'}/${seg(id)}`;
  if (kind === 'm' && action === 'optout') {
    const value = form.get('optedOut');
    if (value !== 'true' && value !== 'false') return sendText(res, 400, 'optedOut must be true or false');
    await memory.admin.setOptOut({ guildId, userId: id, optedOut: value === 'true' });
    return redirect(res, back);
  }
  if (kind === 'm' && action === 'purge') {
    await memory.admin.purgeUser({ guildId, userId: id, dryRun: false });
    return redirect(res, `/g/${seg(guildId)}`);
  }
  if (kind === 'f' && action === 'forget') {
    await memory.facts.forget({ guildId, factId: id, reason: 'forgotten in the inspector' });
    return redirect(res, back);
  }
  return sendText(res, 404, 'not found');
}

/** Routes one request; errors become fixed messages (a MemoryError's code, never input). */
export async function route(ctx: RouteContext, req: IncomingMessage, res: ServerResponse, parts: string[]) {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  try {
    if (req.method === 'GET' || req.method === 'HEAD') return await getPage(ctx, parts, url, res);
    if (req.method === 'POST') return await postAction(ctx, parts, req, res);
    return sendText(res, 405, 'method not allowed');
  } catch (error) {
    if (MemoryError.is(error))
      return sendText(
        res,
        error.code === 'NOT_FOUND' ? 404 : error.code === 'SCHEMA_INVALID' ? 400 : 500,
        error.code,
      );
    return sendText(res, 500, 'internal error');
  }
}

import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { Memory } from '@permafrost/core';
import { McpFailure } from './errors.js';
import type { CallMeter } from './metering.js';
import type { GuildScope } from './scope.js';
import { idField } from './tool.js';

/** Resource URIs (ids are URI-encoded path segments). */
export const SERVER_STATS_URI = 'permafrost://server/stats';
export const guildStatsUri = (guildId: string) => `permafrost://guild/${encodeURIComponent(guildId)}/stats`;
export const MEMBER_EXPORT_TEMPLATE = 'permafrost://guild/{guildId}/member/{userId}/export';
export const memberExportUri = (guildId: string, userId: string) =>
  `permafrost://guild/${encodeURIComponent(guildId)}/member/${encodeURIComponent(userId)}/export`;

const GUILD_STATS = /^permafrost:\/\/guild\/([^/]+)\/stats$/;
const MEMBER_EXPORT = /^permafrost:\/\/guild\/([^/]+)\/member\/([^/]+)\/export$/;

export interface ResourceContext {
  readonly memory: Memory;
  readonly scope: GuildScope;
  readonly meter: CallMeter;
  /** Admin resources (member exports) are served only when the server was started as admin. */
  readonly admin: boolean;
}

export function listResources(ctx: ResourceContext): Resource[] {
  return [
    {
      uri: SERVER_STATS_URI,
      name: 'server-stats',
      title: 'MCP server metering',
      description: 'Calls per tool and resource, by outcome code, with durations (no content).',
      mimeType: 'application/json',
    },
    ...ctx.scope.guilds.map((g) => ({
      uri: guildStatsUri(g),
      name: `guild-stats-${g}`,
      title: `Memory totals of guild ${g}`,
      description: 'Facts by tier and scope, members, entities, relations, queue state.',
      mimeType: 'application/json',
    })),
  ];
}

export function listResourceTemplates(ctx: ResourceContext): ResourceTemplate[] {
  if (!ctx.admin) return [];
  return [
    {
      uriTemplate: MEMBER_EXPORT_TEMPLATE,
      name: 'member-export',
      title: 'Everything stored about a member (admin)',
      description:
        'A data-access export of one member: facts about and by them, aliases, relations, digest, messages. Served only by a server started with --admin.',
      mimeType: 'application/json',
    },
  ];
}

function segment(raw: string, what: string): string {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    throw new McpFailure('SCHEMA_INVALID', `invalid ${what} in the resource URI`, [
      { path: [what], code: 'invalid_format' },
    ]);
  }
  if (!idField.safeParse(value).success)
    throw new McpFailure('SCHEMA_INVALID', `invalid ${what} in the resource URI`, [
      { path: [what], code: 'invalid_format' },
    ]);
  return value;
}

const json = (uri: string, value: unknown): ReadResourceResult => ({
  contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }],
});

/** Which resource a URI names (for metering) and its guild when that guild is served. */
export function classify(uri: string, scope: GuildScope): { kind: string; guildId: string | null } {
  const served = (raw: string | undefined) => {
    try {
      const g = decodeURIComponent(raw ?? '');
      return scope.has(g) ? g : null;
    } catch {
      return null;
    }
  };
  if (uri === SERVER_STATS_URI) return { kind: 'server-stats', guildId: null };
  const stats = GUILD_STATS.exec(uri);
  if (stats) return { kind: 'stats', guildId: served(stats[1]) };
  const member = MEMBER_EXPORT.exec(uri);
  if (member) return { kind: 'member-export', guildId: served(member[1]) };
  return { kind: 'unknown', guildId: null };
}

export async function readResource(uri: string, ctx: ResourceContext): Promise<ReadResourceResult> {
  if (uri === SERVER_STATS_URI) return json(uri, { guilds: ctx.scope.guilds, ...ctx.meter.snapshot() });
  const stats = GUILD_STATS.exec(uri);
  if (stats) {
    const guildId = segment(stats[1] as string, 'guildId');
    ctx.scope.check(guildId);
    return json(uri, await ctx.memory.stats({ guildId }));
  }
  const member = MEMBER_EXPORT.exec(uri);
  if (member) {
    const guildId = segment(member[1] as string, 'guildId');
    const userId = segment(member[2] as string, 'userId');
    ctx.scope.check(guildId);
    if (!ctx.admin)
      throw new McpFailure(
        'ADMIN_REQUIRED',
        'member exports are served only by a server started with --admin (see docs/mcp.md)',
      );
    return json(uri, await ctx.memory.admin.exportUser({ guildId, userId }));
  }
  throw new McpFailure('RESOURCE_NOT_FOUND', 'no such resource');
}

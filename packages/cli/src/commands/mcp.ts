import { existsSync } from 'node:fs';
import { ErrorCode, type LogEvent, MemoryError } from '@permafrost/core';
import { sqlitePath } from '@permafrost/core/internal';
import { createMemoryMcp, serveMcpHttp, serveMcpStdio } from '@permafrost/mcp';
import { type CommandContext, openMemory, storageUrl, str } from '../context.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { intFlag } from '../flags.js';
import { cliVersion } from '../version.js';
import type { Command } from './types.js';

/** `mcp.call` events as JSON lines on stderr (stdout is the protocol in stdio mode). */
function stderrLogger(event: LogEvent): void {
  process.stderr.write(
    `${JSON.stringify({ at: new Date().toISOString(), level: event.level, event: event.event, ...event.data })}\n`,
  );
}

function guildsOf(ctx: CommandContext): string[] {
  const raw = ctx.values['guild'];
  const guilds = (Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : []).filter((g) => g !== '');
  if (guilds.length === 0) throw new UsageError('--guild is required (repeat it to serve several guilds)');
  if (guilds.some((g) => g.length > 128)) throw new UsageError('a guild id is at most 128 characters');
  return guilds;
}

/** The MCP server writes: a SQLite path that does not exist is a typo, not a new memory. */
function requireExistingSqlite(ctx: CommandContext): void {
  const url = storageUrl(str(ctx, 'db'), ctx.cwd);
  if (!url.startsWith('sqlite://')) return;
  const path = sqlitePath(url);
  if (path !== ':memory:' && !existsSync(path))
    throw new MemoryError(ErrorCode.NOT_FOUND, `no SQLite database at ${path} (check --db)`);
}

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'serve one memory to agents over MCP (stdio, or streamable HTTP with --http)',
  usage:
    '--db <url|path> --guild <id> [--guild <id>…] [--http [--host 127.0.0.1] [--port <n>] [--token <t>]] [--admin]',
  options: {
    guild: { type: 'string', multiple: true },
    http: { type: 'boolean', default: false },
    host: { type: 'string' },
    port: { type: 'string' },
    token: { type: 'string' },
    admin: { type: 'boolean', default: false },
  },
  async run(ctx) {
    const guilds = guildsOf(ctx);
    const http = ctx.values['http'] === true;
    const port = intFlag(ctx, 'port', 0, 0, 65_535);
    const host = str(ctx, 'host') ?? '127.0.0.1';
    const token = str(ctx, 'token') ?? (process.env['PERMAFROST_MCP_TOKEN'] || undefined);
    if (!http && ['host', 'port', 'token'].some((f) => str(ctx, f) !== undefined))
      throw new UsageError('--host, --port and --token apply to --http only');
    requireExistingSqlite(ctx);
    const memory = openMemory(ctx);
    try {
      await memory.start();
      const mcp = createMemoryMcp({
        memory,
        guilds,
        admin: ctx.values['admin'] === true,
        logger: stderrLogger,
        name: 'permafrost',
        version: cliVersion(),
      });
      if (http) {
        const serving = await serveMcpHttp(mcp, { host, port, ...(token !== undefined ? { token } : {}) });
        ctx.out.error(`permafrost mcp: listening on ${serving.url} for guild(s) ${guilds.join(', ')}`);
        await ctx.interrupted;
        await serving.close();
        return ExitCode.OK;
      }
      const serving = await serveMcpStdio(mcp);
      ctx.out.error(`permafrost mcp: serving guild(s) ${guilds.join(', ')} over stdio`);
      await Promise.race([serving.closed, ctx.interrupted]);
      await serving.close();
      return ExitCode.OK;
    } finally {
      await memory.close({ drain: false });
    }
  },
};

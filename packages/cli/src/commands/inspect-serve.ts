import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { ErrorCode, MemoryError } from '@permafrost/core';
import { sqlitePath } from '@permafrost/core/internal';
import { createSqliteStore } from '@permafrost/store-sqlite';
import { type CommandContext, openMemory, storageUrl, str } from '../context.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { intFlag } from '../flags.js';
import { loopbackUrl } from '../inspector/model-usage.js';
import { startInspector } from '../inspector/server.js';

const MIN_TOKEN_CHARS = 16;

/** The admin token: --admin-token, else a fresh random one (printed once), else none. */
function adminTokenOf(ctx: CommandContext): string | null {
  const given = str(ctx, 'admin-token');
  if (given !== undefined) {
    if (given.length < MIN_TOKEN_CHARS)
      throw new UsageError(`--admin-token must be at least ${MIN_TOKEN_CHARS} characters`);
    return given;
  }
  return ctx.values['admin'] === true ? randomBytes(18).toString('base64url') : null;
}

/**
 * `permafrost inspect --serve`: the web inspector on 127.0.0.1 over one SQLite file, opened
 * read-only unless admin actions are enabled (--admin or --admin-token).
 */
export async function serveInspector(ctx: CommandContext): Promise<ExitCode> {
  const url = storageUrl(str(ctx, 'db'), ctx.cwd);
  if (!url.startsWith('sqlite://'))
    throw new UsageError('inspect --serve browses a SQLite file (--db <path>)');
  const path = sqlitePath(url);
  if (path === ':memory:' || !existsSync(path))
    throw new MemoryError(
      ErrorCode.NOT_FOUND,
      `no SQLite database at ${path} (opened read-only, so nothing was created; check the path)`,
    );
  const port = intFlag(ctx, 'port', 0, 0, 65_535);
  const rawMetrics = str(ctx, 'metrics-url');
  const metricsUrl = rawMetrics === undefined ? null : loopbackUrl(rawMetrics);
  if (rawMetrics !== undefined && metricsUrl === null)
    throw new UsageError(
      '--metrics-url must be an http(s) URL on this machine (127.0.0.1, localhost or [::1])',
    );
  const adminToken = adminTokenOf(ctx);
  const store = createSqliteStore({ path, readOnly: adminToken === null });
  const memory = openMemory({ ...ctx, readOnly: adminToken === null }, {}, { store });
  try {
    await memory.start();
    const inspector = await startInspector({
      memory,
      listGuilds: () => store.admin.listGuildIds(),
      adminToken,
      port,
      metricsUrl,
    });
    ctx.out.line(
      `permafrost inspector: ${inspector.url} (${adminToken === null ? 'read-only' : 'admin actions enabled'})`,
    );
    if (adminToken !== null && str(ctx, 'admin-token') === undefined)
      ctx.out.line(`admin token (shown once): ${adminToken}`);
    await ctx.interrupted;
    await inspector.close();
    return ExitCode.OK;
  } finally {
    await memory.close({ drain: false });
  }
}

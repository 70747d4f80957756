import { MemoryError } from '@permafrost/core';
import { sqlitePath } from '@permafrost/core/internal';
import { diagnoseSqlite } from '@permafrost/store-sqlite';
import { openMemory, storageUrl, str } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import type { Command } from './types.js';

interface Row {
  readonly check: string;
  readonly status: 'ok' | 'FAIL' | 'warn';
  readonly detail: string;
}

export const doctorCommand: Command = {
  name: 'doctor',
  summary:
    'check native modules, sqlite-vec, schema version, embedder dimensions and LLM reachability (one tiny call)',
  usage: '--db <url|path> [--llm <url|heuristic|none>] [--embeddings <spec>] [--skip-llm]',
  options: { 'skip-llm': { type: 'boolean', default: false } },
  readOnly: true,
  async run(ctx) {
    const rows: Row[] = [];
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    rows.push({
      check: 'node',
      status: major > 20 || (major === 20 && minor >= 19) ? 'ok' : 'FAIL',
      detail: process.versions.node,
    });
    const url = storageUrl(str(ctx, 'db'), ctx.cwd);
    if (url.startsWith('sqlite:')) {
      for (const c of diagnoseSqlite(sqlitePath(url)))
        rows.push({ check: c.name, status: c.ok ? 'ok' : 'FAIL', detail: c.detail });
    }
    const memory = openMemory(ctx);
    try {
      // The ping first: its outcome is part of the health report that follows.
      // A memory that cannot start has no model to ping; the health report below says why.
      const ping = ctx.values['skip-llm'] === true ? null : await pingLlm(memory).catch(() => null);
      const health = await memory.ops.health();
      for (const c of health.components) {
        if (c.component === 'workers') continue;
        rows.push({
          check: c.component,
          status: c.status === 'ok' ? 'ok' : c.status === 'down' ? 'FAIL' : 'warn',
          detail: c.detail,
        });
      }
      if (ping) rows.push(ping);
    } catch (error) {
      rows.push({
        check: 'open memory',
        status: 'FAIL',
        detail: MemoryError.is(error) ? `${error.code}: ${error.message}` : 'failed',
      });
    } finally {
      await memory.close({ drain: false });
    }
    if (ctx.values['json'] === true) ctx.out.json(rows);
    else ctx.out.table(rows as unknown as Record<string, unknown>[]);
    return rows.some((r) => r.status === 'FAIL') ? ExitCode.FAILURE : ExitCode.OK;
  },
};

async function pingLlm(memory: ReturnType<typeof openMemory>): Promise<Row> {
  const probe = await memory.ops.probeLlm();
  if (probe.model === null) return { check: 'llm reachable', status: 'warn', detail: probe.detail };
  return {
    check: 'llm reachable',
    status: probe.ok ? 'ok' : 'FAIL',
    detail: `${probe.model}: ${probe.detail}`,
  };
}

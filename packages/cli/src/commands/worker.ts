import { openMemory, str } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import type { Command } from './types.js';

export const runPendingCommand: Command = {
  name: 'run-pending',
  summary: 'worker mode: process queued batches (use --once for a single cron tick)',
  usage: '--db <url|path> [--llm <url|heuristic|none>] [--once] [--interval <ms>] [--limit <n>]',
  options: {
    once: { type: 'boolean', default: false },
    interval: { type: 'string' },
    limit: { type: 'string' },
    guild: { type: 'string' },
  },
  async run(ctx) {
    const memory = openMemory(ctx);
    const interval = Number(str(ctx, 'interval') ?? 1000);
    const limit = Number(str(ctx, 'limit') ?? 16);
    const guild = str(ctx, 'guild');
    let stopping: string | null = null;
    void ctx.interrupted.then((signal) => {
      stopping = signal;
      ctx.out.error(`\n${signal}: finishing the current batches, then stopping…`);
    });
    let total = 0;
    const started = Date.now();
    const tty = process.stderr.isTTY === true && ctx.values['json'] !== true;
    try {
      do {
        const n = await memory.ops.runPending({ limit, ...(guild ? { guildId: guild } : {}) });
        total += n;
        const health = await memory.ops.health();
        if (tty) {
          const secs = Math.round((Date.now() - started) / 1000);
          process.stderr.write(
            `\r[${'#'.repeat(Math.min(20, total % 21)).padEnd(20)}] batches ${total}  pending ${health.pending}  dead ${health.deadLetters}  ${secs}s `,
          );
        }
        if (ctx.values['once'] === true || stopping) break;
        if (n === 0) await Promise.race([new Promise((r) => setTimeout(r, interval)), ctx.interrupted]);
      } while (!stopping);
    } finally {
      await memory.close({ drain: true, timeoutMs: 30_000 });
      if (tty) process.stderr.write('\n');
    }
    if (ctx.values['json'] === true) ctx.out.json({ batches: total, interrupted: stopping !== null });
    else ctx.out.line(`processed ${total} batch(es)`);
    return stopping ? ExitCode.INTERRUPTED : ExitCode.OK;
  },
};

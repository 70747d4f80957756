import { openMemory, str } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { intFlag } from '../flags.js';
import type { Command } from './types.js';

export const runPendingCommand: Command = {
  name: 'run-pending',
  summary: 'worker mode: process queued batches (use --once for a single cron tick)',
  usage:
    '--db <url|path> [--llm <url|heuristic|none>] [--once] [--interval <ms>] [--limit <n>] [--guild <id>] [--drain-timeout <ms>]',
  options: {
    once: { type: 'boolean', default: false },
    interval: { type: 'string' },
    limit: { type: 'string' },
    guild: { type: 'string' },
    'drain-timeout': { type: 'string' },
  },
  async run(ctx) {
    const interval = intFlag(ctx, 'interval', 1000, 10, 3_600_000);
    const limit = intFlag(ctx, 'limit', 16, 1, 10_000);
    const drainMs = intFlag(ctx, 'drain-timeout', 30_000, 0, 3_600_000);
    const guild = str(ctx, 'guild');
    const memory = openMemory(ctx);
    let stopping: string | null = null;
    // SIGINT/SIGTERM: close at once; due batches drain until --drain-timeout, then model calls in
    // flight are aborted (their batches stay queued) and the process exits.
    let closing: Promise<void> | null = null;
    const close = () => {
      closing ??= memory.close({ drain: true, timeoutMs: drainMs });
      return closing;
    };
    void ctx.interrupted.then((signal) => {
      stopping = signal;
      ctx.out.error(`\n${signal}: finishing the current batches (at most ${drainMs} ms), then stopping…`);
      void close().catch(() => undefined);
    });
    let total = 0;
    const started = Date.now();
    const tty = process.stderr.isTTY === true && ctx.values['json'] !== true;
    try {
      do {
        const n = await memory.ops.runPending({ limit, ...(guild ? { guildId: guild } : {}) });
        total += n;
        if (stopping) break;
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
    } catch (error) {
      // Calls cut short by the close that a signal started are expected; anything else is not.
      if (!stopping) throw error;
    } finally {
      await close();
      if (tty) process.stderr.write('\n');
    }
    if (ctx.values['json'] === true) ctx.out.json({ batches: total, interrupted: stopping !== null });
    else ctx.out.line(`processed ${total} batch(es)`);
    return stopping ? ExitCode.INTERRUPTED : ExitCode.OK;
  },
};

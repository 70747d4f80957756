import { openMemory, required } from '../context.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import type { Command } from './types.js';

export const purgeCommand: Command = {
  name: 'purge',
  summary: 'remove every trace of a member in a guild (dry run unless --yes)',
  usage: '--db <url|path> --guild <id> --user <id> [--yes]',
  options: { guild: { type: 'string' }, user: { type: 'string' }, yes: { type: 'boolean', default: false } },
  async run(ctx) {
    const memory = openMemory(ctx);
    try {
      const dryRun = ctx.values['yes'] !== true;
      const report = await memory.admin.purgeUser({
        guildId: required(ctx, 'guild'),
        userId: required(ctx, 'user'),
        dryRun,
      });
      if (ctx.values['json'] === true) ctx.out.json(report);
      else {
        ctx.out.line(dryRun ? 'Dry run — nothing was deleted. Re-run with --yes to purge:' : 'Purged:');
        ctx.out.table(
          Object.entries(report)
            .filter(([k]) => !['guildId', 'userId', 'dryRun'].includes(k))
            .map(([k, v]) => ({ item: k, count: v })),
        );
      }
      return ExitCode.OK;
    } finally {
      await memory.close({ drain: false });
    }
  },
};

export const optoutCommand: Command = {
  name: 'optout',
  summary: 'show or set a member’s opt-out (on: never observed or recalled)',
  usage: '--db <url|path> --guild <id> --user <id> [on|off]',
  options: { guild: { type: 'string' }, user: { type: 'string' } },
  maxPositionals: 1,
  async run(ctx) {
    const memory = openMemory(ctx);
    try {
      const guildId = required(ctx, 'guild');
      const userId = required(ctx, 'user');
      const [state] = ctx.positionals;
      if (state !== undefined && state !== 'on' && state !== 'off')
        throw new UsageError('optout takes "on" or "off"');
      if (state) await memory.admin.setOptOut({ guildId, userId, optedOut: state === 'on' });
      const optedOut = await memory.admin.getOptOut({ guildId, userId });
      if (ctx.values['json'] === true) ctx.out.json({ guildId, userId, optedOut });
      else ctx.out.line(`opt-out is ${optedOut ? 'on' : 'off'}`);
      return ExitCode.OK;
    } finally {
      await memory.close({ drain: false });
    }
  },
};

export const retryDeadCommand: Command = {
  name: 'retry-dead',
  summary: 'return dead-lettered messages to the queue',
  usage: '--db <url|path> [--guild <id>]',
  options: { guild: { type: 'string' } },
  async run(ctx) {
    const memory = openMemory(ctx);
    try {
      const guild = ctx.values['guild'];
      const n = await memory.ops.retryDeadLetters(typeof guild === 'string' ? { guildId: guild } : {});
      if (ctx.values['json'] === true) ctx.out.json({ requeued: n });
      else ctx.out.line(`requeued ${n} message(s)`);
      return ExitCode.OK;
    } finally {
      await memory.close({ drain: false });
    }
  },
};

export const reindexCommand: Command = {
  name: 'reindex',
  summary: 're-embed every fact with the configured embedder (after changing embedders)',
  usage: '--db <url|path> [--embeddings <spec>]',
  options: {},
  async run(ctx) {
    // A normal start refuses an embedder that does not match the stored vectors; reindex is the fix.
    const memory = openMemory(ctx, { llm: null }, { embedderCheck: 'skip' });
    try {
      const result = await memory.ops.reindex();
      if (ctx.values['json'] === true) ctx.out.json(result);
      else ctx.out.line(`re-embedded ${result.vectors} fact(s) in ${result.guilds} guild(s)`);
      return ExitCode.OK;
    } finally {
      await memory.close({ drain: false });
    }
  },
};

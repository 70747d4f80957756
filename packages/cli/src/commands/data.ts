import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openMemory, required, str } from '../context.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { intFlag } from '../flags.js';
import { serveInspector } from './inspect-serve.js';
import type { Command } from './types.js';

export const inspectCommand: Command = {
  name: 'inspect',
  summary: 'facts, aliases and relations as tables; with --serve, a local web inspector',
  usage:
    '--db <url|path> --guild <id> [--user <id>] [--all] [--limit <n>] | --serve [--port <n>] [--admin | --admin-token <t>] [--metrics-url <url>]',
  options: {
    guild: { type: 'string' },
    user: { type: 'string' },
    all: { type: 'boolean', default: false },
    limit: { type: 'string' },
    serve: { type: 'boolean', default: false },
    port: { type: 'string' },
    admin: { type: 'boolean', default: false },
    'admin-token': { type: 'string' },
    'metrics-url': { type: 'string' },
  },
  readOnly: true,
  async run(ctx) {
    if (ctx.values['serve'] === true) return serveInspector(ctx);
    if (
      ['port', 'admin-token', 'metrics-url'].some((f) => str(ctx, f) !== undefined) ||
      ctx.values['admin'] === true
    )
      throw new UsageError('--port, --admin, --admin-token and --metrics-url apply to --serve only');
    const limit = intFlag(ctx, 'limit', 50, 1, 1_000_000);
    const memory = openMemory(ctx);
    try {
      const guildId = required(ctx, 'guild');
      const user = str(ctx, 'user');
      const snapshot = await memory.admin.exportGuild({ guildId });
      const facts = snapshot.facts
        .filter((f) => (user ? f.subjectId === user || f.attribution.speakerId === user : true))
        .filter((f) => ctx.values['all'] === true || (f.validUntil === null && f.supersededById === null))
        .slice(-limit);
      const aliases = snapshot.aliases.filter((a) => (user ? a.userId === user : true));
      const relations = snapshot.relations.filter(
        (r) => r.validUntil === null && (user ? r.srcId === user || r.dstId === user : true),
      );
      if (ctx.values['json'] === true) {
        ctx.out.json({ facts, aliases, relations });
        return ExitCode.OK;
      }
      ctx.out.line(`Facts (${facts.length})`);
      ctx.out.table(
        facts.map((f) => ({
          id: f.id,
          subject: f.subjectId ?? 'server',
          tier: f.tier,
          strength: f.strength,
          active: f.validUntil === null && f.supersededById === null,
          text: f.text,
        })),
      );
      ctx.out.line();
      ctx.out.line(`Aliases (${aliases.length})`);
      ctx.out.table(
        aliases.map((a) => ({ alias: a.alias, user: a.userId, source: a.source, weight: a.weight })),
      );
      ctx.out.line();
      ctx.out.line(`Relations (${relations.length})`);
      ctx.out.table(
        relations.map((r) => ({
          from: `${r.srcType}:${r.srcId}`,
          verb: r.verb,
          to: `${r.dstType}:${r.dstId}`,
          polarity: r.polarity,
          weight: r.weight.toFixed(3),
        })),
      );
      return ExitCode.OK;
    } finally {
      await memory.close({ drain: false });
    }
  },
};

export const statsCommand: Command = {
  name: 'stats',
  summary: 'totals by tier and scope, members, entities, relations, queue state',
  usage: '--db <url|path> --guild <id>',
  options: { guild: { type: 'string' } },
  readOnly: true,
  async run(ctx) {
    const memory = openMemory(ctx);
    try {
      const stats = await memory.stats({ guildId: required(ctx, 'guild') });
      if (ctx.values['json'] === true) ctx.out.json(stats);
      else ctx.out.table(Object.entries(stats).map(([k, v]) => ({ stat: k, value: v })));
      return ExitCode.OK;
    } finally {
      await memory.close({ drain: false });
    }
  },
};

export const exportCommand: Command = {
  name: 'export',
  summary: 'write a guild (or one member with --user) as versioned JSON',
  usage: '--db <url|path> --guild <id> [--user <id>] [--out <file>]',
  options: { guild: { type: 'string' }, user: { type: 'string' }, out: { type: 'string' } },
  readOnly: true,
  async run(ctx) {
    const memory = openMemory(ctx);
    try {
      const guildId = required(ctx, 'guild');
      const user = str(ctx, 'user');
      const doc = user
        ? await memory.admin.exportUser({ guildId, userId: user })
        : await memory.admin.exportGuild({ guildId });
      const text = `${JSON.stringify(doc, null, 2)}\n`;
      const out = str(ctx, 'out');
      if (out) {
        writeFileSync(resolve(ctx.cwd, out), text);
        ctx.out.error(`wrote ${out}`);
      } else ctx.out.line(text.trimEnd());
      return ExitCode.OK;
    } finally {
      await memory.close({ drain: false });
    }
  },
};

export const importCommand: Command = {
  name: 'import',
  summary: 'restore a guild export (re-embeds with the configured embedder)',
  usage: '--db <url|path> --file <export.json> [--guild <id>]',
  options: { file: { type: 'string' }, guild: { type: 'string' } },
  async run(ctx) {
    const file = required(ctx, 'file');
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(resolve(ctx.cwd, file), 'utf8'));
    } catch {
      throw new UsageError(`${file} is not a readable JSON file`);
    }
    const memory = openMemory(ctx);
    try {
      const guild = str(ctx, 'guild');
      const counts = await memory.admin.importGuild({ data, ...(guild ? { guildId: guild } : {}) });
      if (ctx.values['json'] === true) ctx.out.json(counts);
      else ctx.out.table(Object.entries(counts).map(([k, v]) => ({ imported: k, count: v })));
      return ExitCode.OK;
    } finally {
      await memory.close({ drain: false });
    }
  },
};

import { openMemory, required, str } from '../context.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { intFlag } from '../flags.js';
import { plain } from '../output.js';
import type { Command } from './types.js';

export const searchCommand: Command = {
  name: 'search',
  summary: 'recall facts for a question (the same ranking the bot uses), or search messages with --messages',
  usage: '--db <url|path> --guild <id> --query "<text>" [--user <id>] [--limit <n>] [--messages]',
  options: {
    guild: { type: 'string' },
    query: { type: 'string' },
    user: { type: 'string' },
    limit: { type: 'string' },
    messages: { type: 'boolean', default: false },
  },
  readOnly: true,
  async run(ctx) {
    const limit = intFlag(ctx, 'limit', 10, 1, 200);
    const memory = openMemory(ctx);
    try {
      const guildId = required(ctx, 'guild');
      const text = required(ctx, 'query');
      // recall() never throws (it answers store_unavailable); a command must say why it cannot run.
      await memory.start();
      if (ctx.values['messages'] === true) {
        const r = await memory.conversation.search({ guildId, text, limit });
        if (ctx.values['json'] === true) ctx.out.json(r);
        else
          ctx.out.table(
            r.messages.map((m) => ({
              score: m.score.toFixed(3),
              author: m.message.authorDisplayName || m.message.authorId,
              at: m.message.createdAt,
              message: m.message.content,
            })),
          );
        return ExitCode.OK;
      }
      const user = str(ctx, 'user');
      const r = await memory.recall({
        guildId,
        text,
        topK: limit,
        maxPerSubject: limit,
        ...(user ? { scope: 'subjects' as const, subjectIds: [user] } : { scope: 'guild' as const }),
      });
      if (ctx.values['json'] === true) ctx.out.json(r);
      else {
        ctx.out.table(
          r.facts.map((f) => ({
            score: f.score.toFixed(3),
            about: f.fact.subjectId ?? 'server',
            channels: f.matchedChannels.join(','),
            fact: f.fact.text,
          })),
        );
        if (r.degradedChannels.length > 0)
          ctx.out.error(`degraded channels: ${r.degradedChannels.join(', ')}`);
      }
      return ExitCode.OK;
    } finally {
      await memory.close({ drain: false });
    }
  },
};

const safeId = (s: string) => s.replace(/[^A-Za-z0-9_]/g, '_');
const label = (s: string) => plain(s).replace(/["\\]/g, ' ').slice(0, 60);

export const graphCommand: Command = {
  name: 'graph',
  summary: "a picture of a member's or a guild's relations (mermaid or graphviz dot)",
  usage: '[mermaid|dot] --db <url|path> --guild <id> [--user <id>] [--format mermaid|dot] [--limit <n>]',
  options: {
    guild: { type: 'string' },
    user: { type: 'string' },
    format: { type: 'string' },
    limit: { type: 'string' },
  },
  maxPositionals: 1,
  readOnly: true,
  async run(ctx) {
    const [positional] = ctx.positionals;
    const flag = str(ctx, 'format');
    if (positional !== undefined && flag !== undefined && positional !== flag)
      throw new UsageError(`graph ${positional} and --format ${flag} disagree`);
    const format = positional ?? flag ?? 'mermaid';
    if (format !== 'mermaid' && format !== 'dot') throw new UsageError('the format must be mermaid or dot');
    const limit = intFlag(ctx, 'limit', 200, 1, 100_000);
    const memory = openMemory(ctx);
    try {
      const guildId = required(ctx, 'guild');
      const user = str(ctx, 'user');
      const snapshot = await memory.admin.exportGuild({ guildId });
      const names = new Map<string, string>();
      for (const a of [...snapshot.aliases].sort((x, y) => y.weight - x.weight))
        if (!names.has(`user:${a.userId}`)) names.set(`user:${a.userId}`, a.alias);
      for (const e of snapshot.entities) names.set(`entity:${e.slug}`, e.name);
      const edges = snapshot.relations
        .filter((r) => r.validUntil === null)
        .filter(
          (r) =>
            !user || (r.srcType === 'user' && r.srcId === user) || (r.dstType === 'user' && r.dstId === user),
        )
        .sort((a, b) => b.weight - a.weight)
        .slice(0, limit);
      const node = (type: string, id: string) => `${type}:${id}`;
      const shown = (k: string) => label(names.get(k) ?? k.slice(k.indexOf(':') + 1));
      const lines: string[] = [];
      if (format === 'mermaid') {
        lines.push('graph LR');
        for (const r of edges) {
          const a = node(r.srcType, r.srcId);
          const b = node(r.dstType, r.dstId);
          const arrow = r.polarity === 'negative' ? '-. ' : '-- ';
          const tail = r.polarity === 'negative' ? ' .->' : ' -->';
          lines.push(
            `  ${safeId(a)}${r.srcType === 'user' ? `(["${shown(a)}"])` : `["${shown(a)}"]`} ${arrow}${label(r.verb)}${tail} ${safeId(b)}${r.dstType === 'user' ? `(["${shown(b)}"])` : `["${shown(b)}"]`}`,
          );
        }
      } else {
        lines.push('digraph permafrost {', '  rankdir=LR;');
        for (const r of edges) {
          const a = node(r.srcType, r.srcId);
          const b = node(r.dstType, r.dstId);
          lines.push(
            `  "${shown(a)}" -> "${shown(b)}" [label="${label(r.verb)}"${r.polarity === 'negative' ? ', style=dashed, color=red' : ''}];`,
          );
        }
        lines.push('}');
      }
      ctx.out.line(lines.join('\n'));
      return ExitCode.OK;
    } finally {
      await memory.close({ drain: false });
    }
  },
};

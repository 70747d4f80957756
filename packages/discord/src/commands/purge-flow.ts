import type { PurgeReport } from '@permafrost/core';
import { ButtonStyle } from 'discord.js';
import { type ComponentContext, type SlashContext, settle } from './command-context.js';
import { askToConfirm } from './confirm-prompt.js';
import { ComponentAction } from './custom-id.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** `12 facts, 40 messages, 2 names, 3 relations`. */
export function purgeSummary(report: PurgeReport): string {
  return [
    plural(report.facts, 'fact'),
    plural(report.messages, 'message'),
    plural(report.aliases, 'name'),
    plural(report.relations, 'relation'),
  ].join(', ');
}

/** `/memory purge` — counts what would go (dry run) and asks for confirmation. */
export async function purgeCommand(ctx: SlashContext): Promise<void> {
  const preview = await ctx.memory.admin.purgeUser({
    guildId: ctx.guildId,
    userId: ctx.invokerId,
    dryRun: true,
  });
  await askToConfirm(ctx, {
    content: (seconds) =>
      `This deletes everything I store about you in this server (${purgeSummary(preview)}). ` +
      `It cannot be undone. Confirm within ${seconds} s.`,
    action: ComponentAction.PURGE_CONFIRM,
    label: 'Delete everything',
    style: ButtonStyle.Danger,
  });
}

/** The confirmation click (already deferred, invoker and expiry checked). */
export async function purgeConfirmed(ctx: ComponentContext): Promise<void> {
  const report = await ctx.memory.admin.purgeUser({
    guildId: ctx.guildId,
    userId: ctx.invokerId,
    dryRun: false,
  });
  await settle(ctx, `Done. I deleted ${purgeSummary(report)}.`);
}

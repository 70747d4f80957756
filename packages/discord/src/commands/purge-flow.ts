import type { PurgeReport } from '@permafrost/core';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  type MessageActionRowComponentBuilder,
} from 'discord.js';
import {
  type ComponentContext,
  confirmTimeout,
  NO_PINGS,
  type SlashContext,
  settle,
} from './command-context.js';
import { ComponentAction, encodeComponentId } from './custom-id.js';

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
  const expiresAt = Date.now() + confirmTimeout(ctx.options);
  const id = (action: ComponentAction) =>
    encodeComponentId({ action, invokerId: ctx.invokerId, expiresAt, arg: '' });
  const seconds = Math.round(confirmTimeout(ctx.options) / 1000);
  await ctx.interaction.editReply({
    content:
      `This deletes everything I store about you in this server (${purgeSummary(preview)}). ` +
      `It cannot be undone. Confirm within ${seconds} s.`,
    components: [
      new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(
        new ButtonBuilder()
          .setCustomId(id(ComponentAction.PURGE_CONFIRM))
          .setLabel('Delete everything')
          .setStyle(ButtonStyle.Danger),
        new ButtonBuilder()
          .setCustomId(id(ComponentAction.CANCEL))
          .setLabel('Cancel')
          .setStyle(ButtonStyle.Secondary),
      ),
    ],
    allowedMentions: NO_PINGS,
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

// The confirm/cancel prompt shared by the destructive and long-running commands (purge, import,
// forget): both buttons carry the invoker and the expiry, so only the invoker can click them and
// only until the confirmation window closes.
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  type MessageActionRowComponentBuilder,
} from 'discord.js';
import {
  type CommandContext,
  type ComponentContext,
  confirmTimeout,
  NO_PINGS,
  type SlashContext,
} from './command-context.js';
import { ComponentAction, encodeComponentId } from './custom-id.js';

/** A custom id for `action` that only the invoker can use until the confirmation window closes. */
export const confirmableId = (ctx: CommandContext<unknown>, action: ComponentAction, arg = '') =>
  encodeComponentId({
    action,
    invokerId: ctx.invokerId,
    expiresAt: Date.now() + confirmTimeout(ctx.options),
    arg,
  });

export const cancelButton = (ctx: CommandContext<unknown>) =>
  new ButtonBuilder()
    .setCustomId(confirmableId(ctx, ComponentAction.CANCEL))
    .setLabel('Cancel')
    .setStyle(ButtonStyle.Secondary);

export interface ConfirmPrompt {
  /** The question; `seconds` is the confirmation window. */
  readonly content: (seconds: number) => string;
  readonly action: ComponentAction;
  readonly arg?: string;
  readonly label: string;
  readonly style: ButtonStyle.Danger | ButtonStyle.Primary;
}

/** Replaces the deferred reply with the question and its confirm and cancel buttons. */
export async function askToConfirm(
  ctx: SlashContext | ComponentContext,
  prompt: ConfirmPrompt,
): Promise<void> {
  const confirm = new ButtonBuilder()
    .setCustomId(confirmableId(ctx, prompt.action, prompt.arg))
    .setLabel(prompt.label)
    .setStyle(prompt.style);
  await ctx.interaction.editReply({
    content: prompt.content(Math.round(confirmTimeout(ctx.options) / 1000)),
    components: [
      new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(confirm, cancelButton(ctx)),
    ],
    allowedMentions: NO_PINGS,
  });
}

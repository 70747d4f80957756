import { ErrorCode, type Fact, isActive, MemoryError } from '@permafrost/core';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  type InteractionEditReplyOptions,
  type MessageActionRowComponentBuilder,
  StringSelectMenuBuilder,
} from 'discord.js';
import { MESSAGE_LIMIT } from '../text/split-message.js';
import {
  audienceOf,
  type CommandContext,
  type ComponentContext,
  NO_PINGS,
  type SlashContext,
  settle,
} from './command-context.js';
import { askToConfirm, cancelButton, confirmableId } from './confirm-prompt.js';
import { ComponentAction, type ComponentId } from './custom-id.js';
import { factLine, plain } from './format.js';

const PICKER_PAGE = 25; // Discord's limit of options in a select menu

type Row = ActionRowBuilder<MessageActionRowComponentBuilder>;

/** One page of the invoker's facts: a numbered list plus a select menu to pick one. */
async function pickerPage(
  ctx: CommandContext<unknown>,
  cursor?: string,
): Promise<InteractionEditReplyOptions> {
  const page = await ctx.memory.facts.listForSubject({
    guildId: ctx.guildId,
    subjectId: ctx.invokerId,
    includeServer: false,
    limit: PICKER_PAGE,
    ...(cursor ? { cursor } : {}),
    audience: audienceOf(ctx as CommandContext<{ readonly channelId: string | null }>),
  });
  if (page.items.length === 0)
    return { content: "I don't remember anything about you.", components: [], allowedMentions: NO_PINGS };
  const select = new StringSelectMenuBuilder()
    .setCustomId(confirmableId(ctx, ComponentAction.FORGET_PICK))
    .setPlaceholder('Choose the memory to forget')
    .addOptions(
      page.items.map((fact, i) => ({
        label: `${i + 1}. ${fact.text.replace(/\s+/g, ' ').slice(0, 95)}`,
        value: fact.id,
      })),
    );
  const buttons: ButtonBuilder[] = [];
  if (page.nextCursor !== null)
    buttons.push(
      new ButtonBuilder()
        .setCustomId(confirmableId(ctx, ComponentAction.FORGET_PAGE, page.nextCursor))
        .setLabel('Older')
        .setStyle(ButtonStyle.Secondary),
    );
  buttons.push(cancelButton(ctx));
  const header = '**Which memory should I forget?**';
  let content = header;
  for (const [i, fact] of page.items.entries()) {
    const line = factLine(fact, i + 1);
    if (content.length + line.length + 3 > MESSAGE_LIMIT) {
      content += '\n…';
      break;
    }
    content += `\n${line}`;
  }
  return {
    content,
    components: [
      new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(select),
      new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(...buttons),
    ] satisfies Row[],
    allowedMentions: NO_PINGS,
  };
}

/** `/memory forget` — opens the picker. */
export async function forgetCommand(ctx: SlashContext): Promise<void> {
  await ctx.interaction.editReply(await pickerPage(ctx));
}

/** The invoker's own active fact, or null (someone else's, already gone, or unknown). */
async function ownActiveFact(ctx: ComponentContext, factId: string): Promise<Fact | null> {
  try {
    const fact = await ctx.memory.facts.get({ guildId: ctx.guildId, factId });
    return fact.subjectId === ctx.invokerId && isActive(fact) ? fact : null;
  } catch (error) {
    if (MemoryError.is(error, ErrorCode.NOT_FOUND)) return null;
    throw error;
  }
}

/** Picker and confirmation components of the forget flow (already deferred, invoker checked). */
export async function forgetComponent(ctx: ComponentContext, id: ComponentId): Promise<void> {
  if (id.action === ComponentAction.FORGET_PAGE) {
    await ctx.interaction.editReply(await pickerPage(ctx, id.arg || undefined));
    return;
  }
  const factId =
    id.action === ComponentAction.FORGET_PICK && ctx.interaction.isStringSelectMenu()
      ? (ctx.interaction.values[0] ?? '')
      : id.arg;
  const fact = factId ? await ownActiveFact(ctx, factId) : null;
  if (!fact) return void (await settle(ctx, 'That memory is already gone.'));
  if (id.action === ComponentAction.FORGET_PICK) {
    await askToConfirm(ctx, {
      content: () => `Forget this memory?\n> ${plain(fact.text)}`,
      action: ComponentAction.FORGET_CONFIRM,
      arg: fact.id,
      label: 'Forget it',
      style: ButtonStyle.Danger,
    });
    return;
  }
  await ctx.memory.facts.forget({
    guildId: ctx.guildId,
    factId: fact.id,
    reason: 'forgotten at the member’s request',
    actorId: ctx.invokerId,
  });
  await settle(ctx, `Forgotten: “${plain(fact.text)}”.`);
}

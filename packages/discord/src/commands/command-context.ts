import type { Memory } from '@permafrost/core';
import {
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type InteractionEditReplyOptions,
  MessageFlags,
  type StringSelectMenuInteraction,
} from 'discord.js';
import type { HandlerGuard } from '../handler-guard.js';
import type { MemoryCommandOptions } from '../options.js';
import { pageLines } from '../text/split-message.js';

/** Everything a subcommand or component handler needs. */
export interface CommandContext<I> {
  readonly interaction: I;
  readonly memory: Memory;
  readonly options: MemoryCommandOptions;
  readonly guildId: string;
  readonly invokerId: string;
  /** May read other members' memory (admin role or permission). */
  readonly admin: boolean;
  readonly guard: HandlerGuard;
  /** Command name used in hints (`/memory …`). */
  readonly command: string;
}

export type SlashContext = CommandContext<ChatInputCommandInteraction>;

/**
 * The audience of a command: the channel it was run in and its invoker. Replies are ephemeral,
 * but only the invoker sees them there, so they show what that channel may see (`/memory show @x`
 * in #general never lists what was learned in #mods).
 */
export function audienceOf(ctx: CommandContext<{ readonly channelId: string | null }>): {
  readonly channelId: string;
  readonly requesterId: string;
} {
  return { channelId: ctx.interaction.channelId ?? ctx.guildId, requesterId: ctx.invokerId };
}
export type ComponentContext = CommandContext<ButtonInteraction | StringSelectMenuInteraction>;

/** Nothing a reply contains may ping anyone. */
export const NO_PINGS = { parse: [] } as const;

export const DEFAULT_CONFIRM_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_LIST_ITEMS = 50;

/** Answers a deferred slash command: the first page edits the reply, the others follow up. */
export async function sendPages(
  ctx: SlashContext,
  lines: readonly string[],
  extra: Omit<InteractionEditReplyOptions, 'content'> = {},
): Promise<void> {
  const [first = '', ...rest] = pageLines(lines);
  await ctx.interaction.editReply({ ...extra, content: first, allowedMentions: NO_PINGS });
  for (const content of rest)
    await ctx.interaction.followUp({ content, flags: MessageFlags.Ephemeral, allowedMentions: NO_PINGS });
}

/** A one-line answer to a deferred slash command. */
export function say(ctx: SlashContext, content: string): Promise<unknown> {
  return ctx.interaction.editReply({ content, allowedMentions: NO_PINGS });
}

/** Replaces the message a component belongs to (after `deferUpdate`), removing its components. */
export function settle(ctx: ComponentContext, content: string): Promise<unknown> {
  return ctx.interaction.editReply({ content, components: [], allowedMentions: NO_PINGS });
}

export const confirmTimeout = (options: MemoryCommandOptions) =>
  Math.max(1, options.confirmTimeoutMs ?? DEFAULT_CONFIRM_TIMEOUT_MS);

import { type Memory, MemoryError } from '@permafrost/core';
import {
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Interaction,
  MessageFlags,
  type StringSelectMenuInteraction,
} from 'discord.js';
import { HandlerGuard } from '../handler-guard.js';
import type { MemoryCommandOptions } from '../options.js';
import type { CommandContext, ComponentContext, SlashContext } from './command-context.js';
import { NO_PINGS, settle } from './command-context.js';
import { ComponentAction, type ComponentId, decodeComponentId } from './custom-id.js';
import { forgetCommand, forgetComponent } from './forget-flow.js';
import { importCommand, importConfirmed } from './import-flow.js';
import type { MemorySubcommand } from './memory-command.js';
import { isMemoryAdmin } from './permissions.js';
import { purgeCommand, purgeConfirmed } from './purge-flow.js';
import { lookupCommand, relatedCommand, sharedCommand, showCommand } from './read-commands.js';
import { aliasCommand, exportCommand, optOutCommand, rememberCommand } from './self-commands.js';

const SUBCOMMANDS: Readonly<Record<MemorySubcommand, (ctx: SlashContext) => Promise<void>>> = {
  show: showCommand,
  lookup: lookupCommand,
  related: relatedCommand,
  shared: sharedCommand,
  remember: rememberCommand,
  forget: forgetCommand,
  alias: aliasCommand,
  optout: optOutCommand,
  export: exportCommand,
  purge: purgeCommand,
  import: importCommand,
};

const isSubcommand = (name: string): name is MemorySubcommand => Object.hasOwn(SUBCOMMANDS, name);

/**
 * Answers `/memory` commands and the buttons and menus they create. Returns false for any other
 * interaction (so a bot can chain its own handlers). Every reply is ephemeral.
 */
export async function handleMemoryInteraction(
  interaction: Interaction,
  memory: Memory,
  options: MemoryCommandOptions = {},
): Promise<boolean> {
  const command = options.commandName ?? 'memory';
  if (interaction.isChatInputCommand()) {
    if (interaction.commandName !== command) return false;
    await run(interaction, memory, options, command, (ctx) => slash(ctx as SlashContext));
    return true;
  }
  if (interaction.isButton() || interaction.isStringSelectMenu()) {
    const id = decodeComponentId(interaction.customId);
    if (!id) return false;
    await run(interaction, memory, options, command, (ctx) => component(ctx as ComponentContext, id));
    return true;
  }
  return false;
}

type Handled = ChatInputCommandInteraction | ButtonInteraction | StringSelectMenuInteraction;

async function run(
  interaction: Handled,
  memory: Memory,
  options: MemoryCommandOptions,
  command: string,
  body: (ctx: CommandContext<Handled>) => Promise<void>,
): Promise<void> {
  const guard = new HandlerGuard(options.logger);
  try {
    if (options.claimInteractions) {
      const won = await memory.claims.tryClaim({
        guildId: interaction.guildId ?? `dm:${interaction.user.id}`,
        channelId: interaction.channelId ?? 'dm',
        messageId: `itx:${interaction.id}`,
      });
      if (!won) return; // another bot process answers this interaction
    }
    if (!interaction.inGuild()) {
      await interaction.reply({
        content: 'Memories belong to a server; use this command there.',
        flags: MessageFlags.Ephemeral,
      });
      return;
    }
    await body({
      interaction,
      memory,
      options,
      guildId: interaction.guildId,
      invokerId: interaction.user.id,
      admin: isMemoryAdmin(interaction, options),
      guard,
      command,
    });
  } catch (error) {
    // Never rejects: callers usually fire and forget from an event listener.
    const code = MemoryError.is(error) ? error.code : 'INTERNAL';
    guard.log('error', 'discord.command_failed', { interactionId: interaction.id, code }, error);
    await apologise(interaction).catch(() => undefined);
  }
}

async function apologise(interaction: Handled): Promise<void> {
  const content = 'Something went wrong on my side; please try again in a moment.';
  if (interaction.deferred || interaction.replied)
    await interaction.editReply({ content, components: [], allowedMentions: NO_PINGS });
  else await interaction.reply({ content, flags: MessageFlags.Ephemeral });
}

async function slash(ctx: SlashContext): Promise<void> {
  await ctx.interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const name = ctx.interaction.options.getSubcommand(true);
  if (!isSubcommand(name)) {
    await ctx.interaction.editReply({ content: 'I do not know that subcommand.' });
    return;
  }
  await SUBCOMMANDS[name](ctx);
}

async function component(ctx: ComponentContext, id: ComponentId): Promise<void> {
  if (id.invokerId !== ctx.invokerId) {
    await ctx.interaction.reply({
      content: 'Only the member who ran the command can use these buttons.',
      flags: MessageFlags.Ephemeral,
    });
    return;
  }
  await ctx.interaction.deferUpdate();
  if (Date.now() > id.expiresAt) {
    await settle(ctx, `This expired; run \`/${ctx.command}\` again.`);
    return;
  }
  switch (id.action) {
    case ComponentAction.CANCEL:
      await settle(ctx, 'Cancelled; nothing was changed.');
      return;
    case ComponentAction.PURGE_CONFIRM:
      await purgeConfirmed(ctx);
      return;
    case ComponentAction.IMPORT_CONFIRM:
      await importConfirmed(ctx);
      return;
    default:
      await forgetComponent(ctx, id);
  }
}

import { ErrorCode, MemoryError } from '@permafrost/core';
import { AttachmentBuilder } from 'discord.js';
import { NO_PINGS, type SlashContext, say } from './command-context.js';
import { plain } from './format.js';

const FALLBACK_ATTACHMENT_LIMIT = 8 * 1024 * 1024;

/** The channel a command ran in, with its parent when it is a thread. */
function channelOf(ctx: SlashContext): { channelId: string; parentId: string | null } {
  const channel = ctx.interaction.channel;
  const parentId = channel?.isThread() ? channel.parentId : null;
  return { channelId: ctx.interaction.channelId, parentId: parentId ?? null };
}

/** `/memory remember text` — a manual fact about the invoker (core tier, never decays). */
export async function rememberCommand(ctx: SlashContext): Promise<void> {
  const text = ctx.interaction.options.getString('text', true);
  try {
    await ctx.memory.facts.remember({
      guildId: ctx.guildId,
      subjectId: ctx.invokerId,
      text,
      actorId: ctx.invokerId,
      speakerId: ctx.invokerId,
      // A retried or twice-delivered interaction (two bot instances) writes the fact once.
      idempotencyKey: `discord-interaction:${ctx.interaction.id}`,
      // Said in a channel: shown where that channel's conversations may be shown.
      ...(ctx.interaction.channelId ? { channel: channelOf(ctx) } : {}),
    });
  } catch (error) {
    if (MemoryError.is(error, ErrorCode.SUBJECT_NOT_ALLOWED))
      return void (await say(
        ctx,
        `You have opted out, so I'm not keeping memories about you. \`/${ctx.command} optout off\` turns that back on.`,
      ));
    if (MemoryError.is(error, ErrorCode.SCHEMA_INVALID))
      return void (await say(ctx, "I can't store that one — try a short sentence about yourself."));
    throw error;
  }
  await say(ctx, `Noted: “${plain(text)}”`);
}

/** `/memory alias name`. */
export async function aliasCommand(ctx: SlashContext): Promise<void> {
  const name = ctx.interaction.options.getString('name', true).trim();
  const added = await ctx.memory.identity.registerAlias({
    guildId: ctx.guildId,
    userId: ctx.invokerId,
    alias: name,
    source: 'manual',
  });
  if (!added)
    return void (await say(ctx, "I can't use that as a name — try letters rather than digits or mentions."));
  await say(ctx, `Got it — I'll also know you as “${plain(name, 64)}”.`);
}

/** `/memory optout on|off`. Opting out deletes nothing; `purge` does. */
export async function optOutCommand(ctx: SlashContext): Promise<void> {
  const on = ctx.interaction.options.getString('state', true) === 'on';
  await ctx.memory.admin.setOptOut({ guildId: ctx.guildId, userId: ctx.invokerId, optedOut: on });
  await say(
    ctx,
    on
      ? `Done: I won't learn from your messages or bring you up in replies. What I already know stays until you run \`/${ctx.command} purge\`.`
      : "Done: I'll learn from your messages again.",
  );
}

/** `/memory export` — the invoker's own data as a JSON file. */
export async function exportCommand(ctx: SlashContext): Promise<void> {
  const data = await ctx.memory.admin.exportUser({ guildId: ctx.guildId, userId: ctx.invokerId });
  const bytes = Buffer.from(JSON.stringify(data, null, 2), 'utf8');
  // Older discord.js versions do not expose the limit; 8 MiB is Discord's smallest.
  const limit = Number(ctx.interaction.attachmentSizeLimit) || FALLBACK_ATTACHMENT_LIMIT;
  if (bytes.length > limit)
    return void (await say(
      ctx,
      'Your export is larger than Discord lets me attach here; a server admin can export it for you.',
    ));
  const file = new AttachmentBuilder(bytes, {
    name: `memory-export-${ctx.guildId}-${ctx.invokerId}.json`,
    description: 'Everything the bot stores about you in this server',
  });
  await ctx.interaction.editReply({
    content: `Here is everything I store about you in this server: ${data.factsAbout.length} facts about you, ${data.factsStated.length} you told me about others, ${data.messages.length} messages.`,
    files: [file],
    allowedMentions: NO_PINGS,
  });
}

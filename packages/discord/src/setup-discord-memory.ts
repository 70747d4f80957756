import { ErrorCode, type Memory, MemoryError } from '@permafrost/core';
import {
  type Client,
  Events,
  type GuildMember,
  type Message,
  type MessageReaction,
  type OmitPartialGroupDMChannel,
  type PartialGuildMember,
  type PartialMessage,
  type PartialMessageReaction,
  type PartialUser,
  type ReadonlyCollection,
  type Snowflake,
  type User,
} from 'discord.js';
import { HandlerGuard } from './handler-guard.js';
import { backfillGuildAliases } from './member-backfill.js';
import { forgetDeleted } from './message-deletion.js';
import { displayNameOf, toMessageEvent } from './message-event.js';
import { guildAllowed, shouldObserve } from './message-filter.js';
import { ObserveBatcher } from './observe-batcher.js';
import type { DiscordMemoryOptions } from './options.js';
import { clearedReactionsOf, reactionEmoji, toReactionEvent } from './reaction-event.js';

/** What `setupDiscordMemory` returns: detach the listeners and wait for work in flight. */
export interface DiscordMemoryHandle {
  /** Removes every listener, then resolves when handlers already running have finished. */
  dispose(): Promise<void>;
  /** Resolves when handlers started so far have finished (useful before `memory.close()`). */
  idle(): Promise<void>;
}

type AnyMessage = OmitPartialGroupDMChannel<Message | PartialMessage>;
type AnyReaction = MessageReaction | PartialMessageReaction;

/**
 * Wires a discord.js client to a memory: messages and edits are observed, deleted messages (one or
 * in bulk) are forgotten, reactions are recorded (added, removed, cleared), renames become aliases,
 * the bot's own id is registered when the client is ready (plus an optional member alias backfill),
 * and departing members are kept or purged. Handler errors are logged, never thrown into the client.
 */
export function setupDiscordMemory(
  client: Client,
  memory: Memory,
  options: DiscordMemoryOptions = {},
): DiscordMemoryHandle {
  const guard = new HandlerGuard(options.logger);

  const batchSize = options.observeBatchSize ?? 100;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 1000)
    throw new MemoryError(ErrorCode.CONFIG_INVALID, 'observeBatchSize: must be an integer from 1 to 1000');
  const batcher = new ObserveBatcher(memory, batchSize, (receipts) => {
    for (const receipt of receipts)
      if (receipt.status === 'rejected')
        guard.log('warn', 'discord.observe_rejected', {
          messageId: receipt.messageId,
          reason: receipt.reason,
        });
  });
  const observe = async (message: Message, edited: boolean) => {
    if (!shouldObserve(message, options)) return;
    await batcher.add(toMessageEvent(message, { edited }));
  };

  const onReady = (ready: Client<true>) =>
    guard.run('ready', async () => {
      memory.registerBotId(ready.user.id);
      if (!options.backfillAliases) return;
      for (const guild of ready.guilds.cache.values()) {
        if (!guildAllowed(guild.id, options)) continue;
        const written = await backfillGuildAliases(memory, guild, options.backfillPageSize);
        guard.log('info', 'discord.aliases_backfilled', { guildId: guild.id, aliases: written });
      }
    });

  const onMessageCreate = (message: Message) => guard.run('messageCreate', () => observe(message, false));

  const onMessageUpdate = (before: AnyMessage, after: AnyMessage) =>
    guard.run('messageUpdate', async () => {
      if (options.observeEdits === false) return;
      if (!before.partial && before.content === after.content) return; // embeds resolved, pins, …
      const message = after.partial ? await after.fetch().catch(() => null) : after;
      if (message) await observe(message, true);
    });

  const onMessageDelete = (message: AnyMessage) =>
    guard.run('messageDelete', () => forgetDeleted(memory, guard, options, [message]));

  const onMessageBulkDelete = (messages: ReadonlyCollection<Snowflake, AnyMessage>) =>
    guard.run('messageDeleteBulk', () => forgetDeleted(memory, guard, options, [...messages.values()]));

  // A reaction waits for messages queued before it, so a reaction right after its message finds it stored.
  const onReaction = (handler: string, added: boolean) => (reaction: AnyReaction, user: User | PartialUser) =>
    guard.run(handler, async () => {
      const event = await toReactionEvent(client, reaction, user, added, options);
      if (!event) return;
      await batcher.settled();
      const receipt = await memory.observeReaction(event);
      if (receipt.status === 'rejected')
        guard.log('warn', 'discord.reaction_rejected', {
          messageId: event.messageId,
          reason: receipt.reason,
        });
    });
  const onReactionAdd = onReaction('messageReactionAdd', true);
  const onReactionRemove = onReaction('messageReactionRemove', false);

  const clear = async (message: Message | PartialMessage, emoji?: string) => {
    const target = clearedReactionsOf(client, message, options);
    if (target) await memory.clearReactions(emoji === undefined ? target : { ...target, emoji });
  };
  const onReactionRemoveAll = (message: AnyMessage) =>
    guard.run('messageReactionRemoveAll', () => clear(message));
  const onReactionRemoveEmoji = (reaction: AnyReaction) =>
    guard.run('messageReactionRemoveEmoji', async () => {
      const emoji = reactionEmoji(reaction.emoji);
      if (emoji !== null) await clear(reaction.message, emoji);
    });

  const onMemberUpdate = (before: GuildMember | PartialGuildMember, after: GuildMember) =>
    guard.run('guildMemberUpdate', async () => {
      if (after.user.bot || !guildAllowed(after.guild.id, options)) return;
      const name = displayNameOf(after.user, after);
      if (!before.partial && displayNameOf(before.user, before) === name) return;
      await memory.identity.handleMemberRename({
        guildId: after.guild.id,
        userId: after.id,
        displayName: name,
      });
    });

  const onMemberRemove = (member: GuildMember | PartialGuildMember) =>
    guard.run('guildMemberRemove', async () => {
      if (options.onMemberLeave !== 'purge' || !guildAllowed(member.guild.id, options)) return;
      if (member.user?.bot) return;
      const report = await memory.admin.purgeUser({
        guildId: member.guild.id,
        userId: member.id,
        dryRun: false,
      });
      guard.log('info', 'discord.member_purged', {
        guildId: member.guild.id,
        userId: member.id,
        facts: report.facts,
        messages: report.messages,
      });
    });

  client.on(Events.ClientReady, onReady);
  client.on(Events.MessageCreate, onMessageCreate);
  client.on(Events.MessageUpdate, onMessageUpdate);
  client.on(Events.MessageDelete, onMessageDelete);
  client.on(Events.MessageBulkDelete, onMessageBulkDelete);
  client.on(Events.MessageReactionAdd, onReactionAdd);
  client.on(Events.MessageReactionRemove, onReactionRemove);
  client.on(Events.MessageReactionRemoveAll, onReactionRemoveAll);
  client.on(Events.MessageReactionRemoveEmoji, onReactionRemoveEmoji);
  client.on(Events.GuildMemberUpdate, onMemberUpdate);
  client.on(Events.GuildMemberRemove, onMemberRemove);
  if (client.isReady()) onReady(client);

  let disposed = false;
  return {
    async dispose() {
      if (!disposed) {
        disposed = true;
        client.off(Events.ClientReady, onReady);
        client.off(Events.MessageCreate, onMessageCreate);
        client.off(Events.MessageUpdate, onMessageUpdate);
        client.off(Events.MessageDelete, onMessageDelete);
        client.off(Events.MessageBulkDelete, onMessageBulkDelete);
        client.off(Events.MessageReactionAdd, onReactionAdd);
        client.off(Events.MessageReactionRemove, onReactionRemove);
        client.off(Events.MessageReactionRemoveAll, onReactionRemoveAll);
        client.off(Events.MessageReactionRemoveEmoji, onReactionRemoveEmoji);
        client.off(Events.GuildMemberUpdate, onMemberUpdate);
        client.off(Events.GuildMemberRemove, onMemberRemove);
      }
      await guard.idle();
    },
    idle: () => guard.idle(),
  };
}

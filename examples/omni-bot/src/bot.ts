import { once } from 'node:events';
import { createMemory, type Logger, type Memory } from '@permafrost/core';
import {
  claimBeforeReply,
  createDiscordAudiencePolicy,
  type DiscordMemoryOptions,
  handleMemoryInteraction,
  isAddressedTo,
  type MemoryCommandOptions,
  memoryCommand,
  promptFromMessage,
  replyWithCitations,
  setupDiscordMemory,
} from '@permafrost/discord';
import '@permafrost/store-sqlite';
import { Client, type ClientOptions, Events, GatewayIntentBits, type Message } from 'discord.js';
import { createReplyWriter } from './reply-writer.js';

export interface OmniBotOptions {
  readonly token: string;
  readonly clientOptions?: Partial<ClientOptions>;
  /** SQLite file shared by every process of the bot (default `omni-bot.db`). */
  readonly dbPath?: string;
  /** A storage URL instead of `dbPath` (for example `mongodb://…` for processes on several machines). */
  readonly storage?: string;
  /** `heuristic` (default) or an OpenAI-compatible URL. */
  readonly llm?: string;
  /** Owner id of this process's claims (default: random per process). */
  readonly instanceId?: string;
  /** Registers `/memory` as a global command when ready (default true). */
  readonly registerCommands?: boolean;
  /** Event wiring options (ignored channels, role filters, member-leave policy, …). */
  readonly wiring?: DiscordMemoryOptions;
  /** `/memory` options (admin roles, confirmation timeout, …). */
  readonly commands?: MemoryCommandOptions;
  readonly logger?: Logger;
}

export interface RunningBot {
  readonly client: Client<true>;
  readonly memory: Memory;
  stop(): Promise<void>;
}

/**
 * Learns from everyone it can read, answers mentions and replies (one process per message, via
 * claims), and serves the whole `/memory` group. Resolves once connected and ready.
 */
export async function startBot(options: OmniBotOptions): Promise<RunningBot> {
  const log = options.logger;
  const client = new Client({
    intents: [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.MessageContent,
      GatewayIntentBits.GuildMembers,
    ],
    ...options.clientOptions,
  });
  // Who sees what: replies and /memory answers show only what their channel's readers may see.
  const audiencePolicy = createDiscordAudiencePolicy(client);
  const memory = createMemory(
    {
      storage: options.storage ?? `sqlite:///${options.dbPath ?? 'omni-bot.db'}`,
      llm: options.llm ?? 'heuristic',
    },
    {
      audiencePolicy,
      ...(log ? { logger: log } : {}),
      ...(options.instanceId ? { instanceId: options.instanceId } : {}),
    },
  );
  const wiringOptions: DiscordMemoryOptions = {
    backfillAliases: true,
    ...options.wiring,
    ...(log ? { logger: log } : {}),
  };
  const wiring = setupDiscordMemory(client, memory, wiringOptions);
  const writer = createReplyWriter(memory.config.llm);
  const commandOptions: MemoryCommandOptions = {
    // `/memory import` (admins): the server's history, with the same filters as the live wiring.
    historyImport: { filters: wiringOptions },
    ...options.commands,
    claimInteractions: true,
    ...(log ? { logger: log } : {}),
  };

  const answer = async (message: Message) => {
    if (!client.user || !isAddressedTo(message, client.user.id)) return;
    if (!(await claimBeforeReply(memory, message))) return; // another process answers this one
    if (message.channel.isSendable()) await message.channel.sendTyping().catch(() => undefined);
    const request = await promptFromMessage(message);
    // Two-tier context: the channel's recent messages, plus long-term memory when the question calls
    // for it (always, for the offline summary, which has nothing else to say).
    const context = await memory.context({
      guildId: request.guildId,
      channelId: message.channelId,
      askerId: request.askerId,
      text: request.text,
      mentionedIds: request.mentionedIds,
      mode: writer.usesModel ? 'normal' : 'deep',
    });
    const askerName = message.member?.displayName ?? message.author.displayName;
    const text = await writer.write({
      question: request.text,
      askerName,
      block: context.block,
      longTerm: context.longTerm,
    });
    await replyWithCitations(memory, message, text, context.longTerm, {
      citations: writer.usesModel ? 'cite' : 'tags',
    });
  };

  client.on(Events.MessageCreate, (message) => {
    answer(message).catch((error: unknown) =>
      log?.({ level: 'error', event: 'omni_bot.reply_failed', data: { messageId: message.id }, error }),
    );
  });
  client.on(Events.InteractionCreate, (interaction) => {
    void handleMemoryInteraction(interaction, memory, commandOptions);
  });

  const ready = once(client, Events.ClientReady);
  await client.login(options.token);
  await ready;
  if (options.registerCommands ?? true) await client.application?.commands.set([memoryCommand()]);
  return {
    client: client as Client<true>,
    memory,
    async stop() {
      await wiring.dispose();
      audiencePolicy.dispose();
      await client.destroy();
      await memory.close();
    },
  };
}

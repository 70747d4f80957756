import { once } from 'node:events';
import { createMemory, type Logger, type Memory } from '@permafrost/core';
import {
  createDiscordAudiencePolicy,
  isAddressedTo,
  promptFromMessage,
  replyWithCitations,
  setupDiscordMemory,
} from '@permafrost/discord';
import '@permafrost/store-sqlite';
import { Client, type ClientOptions, Events, GatewayIntentBits, type Message } from 'discord.js';
import { createReplyWriter } from './reply-writer.js';

export interface PingBotOptions {
  readonly token: string;
  /** Extra discord.js client options (for example the REST endpoint of a test emulator). */
  readonly clientOptions?: Partial<ClientOptions>;
  /** SQLite file of the memory (default `ping-reply-bot.db`). */
  readonly dbPath?: string;
  /** A storage URL instead of `dbPath` (`memory` for a throwaway bot). */
  readonly storage?: string;
  /** `heuristic` (default, offline) or an OpenAI-compatible URL such as `openai://$KEY@host/v1?model=…`. */
  readonly llm?: string;
  readonly logger?: Logger;
}

export interface RunningBot {
  readonly client: Client<true>;
  readonly memory: Memory;
  /** Detaches the listeners, logs out and closes the memory (draining pending extraction). */
  stop(): Promise<void>;
}

const CONFIDENT = 0.6;

/** Starts the bot and resolves once it is connected and ready. */
export async function startBot(options: PingBotOptions): Promise<RunningBot> {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
    ...options.clientOptions,
  });
  // Who sees what: a reply shows only what its channel's readers may see on Discord.
  const audiencePolicy = createDiscordAudiencePolicy(client);
  const memory = createMemory(
    {
      storage: options.storage ?? `sqlite:///${options.dbPath ?? 'ping-reply-bot.db'}`,
      llm: options.llm ?? 'heuristic',
    },
    { audiencePolicy, ...(options.logger ? { logger: options.logger } : {}) },
  );
  const wiring = setupDiscordMemory(client, memory, options.logger ? { logger: options.logger } : {});
  const writeReply = createReplyWriter(memory.config.llm);

  const answer = async (message: Message) => {
    if (!client.user || !isAddressedTo(message, client.user.id)) return;
    const request = await promptFromMessage(message);
    const command = await memory.classifyCommand(request.text);
    if (command.action === 'remember' && command.confidence >= CONFIDENT && command.targetText) {
      await memory.facts.remember({
        guildId: request.guildId,
        subjectId: request.askerId,
        text: command.targetText,
        actorId: request.askerId,
        speakerId: request.askerId,
        channel: {
          channelId: message.channelId,
          parentId: message.channel.isThread() ? message.channel.parentId : null,
        },
      });
      await replyWithCitations(memory, message, "Got it — I'll remember that.", null);
      return;
    }
    const context = await memory.promptContext(request);
    const askerName = message.member?.displayName ?? message.author.displayName;
    const text = await writeReply({ question: request.text, askerName, context });
    await replyWithCitations(memory, message, text, context);
  };
  client.on(Events.MessageCreate, (message) => {
    answer(message).catch((error: unknown) =>
      options.logger?.({
        level: 'error',
        event: 'ping_bot.reply_failed',
        data: { messageId: message.id },
        error,
      }),
    );
  });

  const ready = once(client, Events.ClientReady);
  await client.login(options.token);
  await ready;
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

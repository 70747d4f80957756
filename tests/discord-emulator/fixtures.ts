import { once } from 'node:events';
import { Client, type ClientOptions, Events, GatewayIntentBits } from 'discord.js';
import {
  ChannelTypes,
  type DiscordEmulator,
  type EmulatorOptions,
  type GuildSeed,
  snowflake,
  startDiscordEmulator,
} from './index.js';

/** Fixed ids of the scripted guild used across the emulator tests. */
export const ids = {
  bot: snowflake(),
  guild: snowflake(),
  category: snowflake(),
  general: snowflake(),
  random: snowflake(),
  thread: snowflake(),
  alice: snowflake(),
  bob: snowflake(),
  carol: snowflake(),
  modRole: snowflake(),
} as const;

export function guildSeed(): GuildSeed {
  return {
    id: ids.guild,
    name: 'Permafrost Test Guild',
    ownerId: ids.alice,
    roles: [{ id: ids.modRole, name: 'mods', permissions: '8192', color: 0x3498db }],
    channels: [
      { id: ids.category, name: 'Text', type: ChannelTypes.GuildCategory },
      { id: ids.general, name: 'general', parentId: ids.category, topic: 'chit-chat' },
      { id: ids.random, name: 'random', parentId: ids.category },
      { id: ids.thread, name: 'memories', type: ChannelTypes.PublicThread, parentId: ids.general },
    ],
    members: [
      {
        user: { id: ids.alice, username: 'alice', global_name: 'Alice A.' },
        nick: 'Ally',
        roles: [ids.modRole],
      },
      { user: { id: ids.bob, username: 'bob', global_name: 'Bob' } },
      { user: { id: ids.carol, username: 'carol', global_name: null } },
    ],
  };
}

export function startTestEmulator(overrides: Partial<EmulatorOptions> = {}): Promise<DiscordEmulator> {
  return startDiscordEmulator({
    botUser: { id: ids.bot, username: 'permafrost' },
    guilds: [guildSeed()],
    ...overrides,
  });
}

export const defaultIntents = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.MessageContent,
  GatewayIntentBits.GuildMembers,
];

/** Creates a discord.js client against the emulator, logs in and waits for ClientReady. */
export async function connectClient(
  emu: DiscordEmulator,
  options: Partial<ClientOptions> = {},
  token: string = emu.token,
): Promise<Client<true>> {
  const client = new Client({ intents: defaultIntents, ...emu.clientOptions(), ...options });
  const ready = once(client, Events.ClientReady);
  await client.login(token);
  await ready;
  return client as Client<true>;
}

/** Tracks clients so `afterEach` can destroy them before closing the emulator. */
export class ClientPool {
  readonly #clients: Client[] = [];

  async connect(emu: DiscordEmulator, options: Partial<ClientOptions> = {}): Promise<Client<true>> {
    const client = await connectClient(emu, options);
    this.#clients.push(client);
    return client;
  }

  track<T extends Client>(client: T): T {
    this.#clients.push(client);
    return client;
  }

  async destroyAll(): Promise<void> {
    await Promise.all(this.#clients.splice(0).map((c) => c.destroy()));
  }
}

/** Resolves with the next emission of `event` whose arguments satisfy `predicate`. */
export function nextEvent<A extends unknown[]>(
  client: Client,
  event: string,
  predicate: (...args: A) => boolean = () => true,
  timeoutMs = 3_000,
): Promise<A> {
  return new Promise((resolve, reject) => {
    const listener = (...args: unknown[]): void => {
      if (!predicate(...(args as A))) return;
      clearTimeout(timer);
      client.off(event, listener);
      resolve(args as A);
    };
    const timer = setTimeout(() => {
      client.off(event, listener);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    client.on(event, listener);
  });
}

import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory, type Memory, type MemoryConfigInput } from '@permafrost/core';
import '@permafrost/store-sqlite';
import {
  type DiscordMemoryHandle,
  type DiscordMemoryOptions,
  handleMemoryInteraction,
  type MemoryCommandOptions,
  memoryCommand,
  setupDiscordMemory,
} from '@permafrost/discord';
import { Client, type ClientOptions, Events, GatewayIntentBits } from 'discord.js';
import {
  ChannelTypes,
  type DiscordEmulator,
  type GuildSeed,
  snowflake,
  startDiscordEmulator,
} from '../discord-emulator/index.js';

/** Ids of the scripted guild. Owen owns it (administrator); Mo has Manage Server; Carol has the helper role. */
export const ids = {
  bot: snowflake(),
  otherBot: snowflake(),
  guild: snowflake(),
  general: snowflake(),
  offTopic: snowflake(),
  thread: snowflake(),
  ignoredThread: snowflake(),
  alice: snowflake(),
  bob: snowflake(),
  carol: snowflake(),
  mo: snowflake(),
  owen: snowflake(),
  quinn: snowflake(),
  modRole: snowflake(),
  helperRole: snowflake(),
  quietRole: snowflake(),
} as const;

export function guildSeed(): GuildSeed {
  return {
    id: ids.guild,
    name: 'Permafrost Discord Tests',
    ownerId: ids.owen,
    roles: [
      { id: ids.modRole, name: 'mods', permissions: '32' }, // Manage Server
      { id: ids.helperRole, name: 'memory-helpers' },
      { id: ids.quietRole, name: 'quiet' },
    ],
    channels: [
      { id: ids.general, name: 'general' },
      { id: ids.offTopic, name: 'off-topic' },
      { id: ids.thread, name: 'plans', type: ChannelTypes.PublicThread, parentId: ids.general },
      { id: ids.ignoredThread, name: 'side', type: ChannelTypes.PublicThread, parentId: ids.offTopic },
    ],
    members: [
      { user: { id: ids.alice, username: 'alice', global_name: 'Alice A.' }, nick: 'Ally' },
      { user: { id: ids.bob, username: 'bob', global_name: 'Bob' } },
      { user: { id: ids.carol, username: 'carol', global_name: null }, roles: [ids.helperRole] },
      { user: { id: ids.mo, username: 'mo', global_name: 'Mo' }, roles: [ids.modRole] },
      { user: { id: ids.owen, username: 'owen', global_name: 'Owen' } },
      { user: { id: ids.quinn, username: 'quinn', global_name: 'Quinn' }, roles: [ids.quietRole] },
      { user: { id: ids.otherBot, username: 'otherbot', bot: true } },
    ],
  };
}

export const intents = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.MessageContent,
  GatewayIntentBits.GuildMembers,
];

/** A temp directory for SQLite files, removed by `cleanup`. */
export function tempDir(): { path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), 'pf-discord-'));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

export function testMemory(storage: string, config: MemoryConfigInput = {}): Memory {
  return createMemory({ storage, workers: { enabled: false }, ...config });
}

export async function login(
  emu: DiscordEmulator,
  options: Partial<ClientOptions> = {},
): Promise<Client<true>> {
  const client = new Client({ intents, ...emu.clientOptions(), ...options });
  const ready = once(client, Events.ClientReady);
  await client.login(emu.token);
  await ready;
  return client as Client<true>;
}

export interface Harness {
  readonly emu: DiscordEmulator;
  readonly memory: Memory;
  readonly client: Client<true>;
  readonly handle: DiscordMemoryHandle;
  /** The SQLite file the memory writes (its -wal sits beside it). */
  readonly dbPath: string;
  close(): Promise<void>;
}

/** Emulator + one discord.js client wired to a memory on a temp SQLite file, with `/memory` registered. */
export async function startHarness(
  options: {
    setup?: DiscordMemoryOptions;
    command?: MemoryCommandOptions;
    config?: MemoryConfigInput;
    client?: Partial<ClientOptions>;
    /** The scripted guild (default `guildSeed()`). */
    guild?: GuildSeed;
  } = {},
): Promise<Harness> {
  const dir = tempDir();
  const emu = await startDiscordEmulator({
    botUser: { id: ids.bot, username: 'permafrost' },
    guilds: [options.guild ?? guildSeed()],
  });
  const memory = testMemory(storageUrl(dir.path), options.config);
  const client = new Client({ intents, ...emu.clientOptions(), ...options.client });
  const handle = setupDiscordMemory(client, memory, options.setup);
  client.on(Events.InteractionCreate, (interaction) => {
    void handleMemoryInteraction(interaction, memory, options.command);
  });
  const ready = once(client, Events.ClientReady);
  await client.login(emu.token);
  await ready;
  await client.application?.commands.set([memoryCommand()]);
  return {
    emu,
    memory,
    client: client as Client<true>,
    handle,
    dbPath: join(dir.path, 'memory.db'),
    async close() {
      await handle.dispose();
      await client.destroy();
      await emu.close();
      await memory.close();
      dir.cleanup();
    },
  };
}

/** Every test memory lives in a SQLite file in its own temp directory. */
export function storageUrl(dir: string, name = 'memory.db'): string {
  return `sqlite:///${join(dir, name)}`;
}

/** `count` memories on one SQLite file, like bot processes sharing a database. */
export function sharedMemories(dir: string, count: number): Memory[] {
  return Array.from({ length: count }, () => testMemory(storageUrl(dir, 'shared.db')));
}

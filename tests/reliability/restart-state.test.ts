import { join } from 'node:path';
import { createInMemoryStore, createMemory } from '@permafrost/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChild } from './support/children.js';
import { ensureBuilt, tempDir } from './support/paths.js';
import { closeStores, selectedStores } from './support/stores.js';
import { CHANNEL_A, GUILD_A, GUILD_B } from './support/world.js';

afterAll(closeStores);
/**
 * State that must survive a restart (issue #18 item 12): active modes persisted by one process
 * are listed by the next one with the default configuration (no instance id passed), and reply
 * claims are keyed by guild, channel and message.
 */

const tmp = tempDir('restart-state');
beforeAll(() => ensureBuilt(), 120_000);
afterAll(() => tmp.cleanup());

interface Listed {
  readonly mine: readonly [string, string][];
  readonly all: readonly [string, string][];
}

/** The fixture arguments naming the store: a SQLite file, or a Mongo database. */
function storeArgs(name: string, tag: string): Record<string, unknown> {
  if (name === 'mongo')
    return { mongo: { url: process.env['MONGO_URL'], dbName: `pf_modes_${process.pid}_${tag}` } };
  return { path: join(tmp.dir, `${tag}.db`) };
}

const persistent = selectedStores().filter((s) => s.name !== 'memory');

describe.each(persistent)('active modes across processes ($name)', (store) => {
  it('a mode persisted by one process is listed by the next, with default configuration', async () => {
    const where = storeArgs(store.name, 'default');
    const common = { ...where, guildId: GUILD_A, channelId: CHANNEL_A };
    await runChild('modes', { ...common, action: 'persist', mode: 'deep' });
    const after = await runChild<Listed>('modes', { ...common, action: 'list' });
    expect(after.mine).toEqual([[CHANNEL_A, 'deep']]);
  }, 60_000);

  it('conversation.modesOwner separates bots that share one database', async () => {
    const where = storeArgs(store.name, 'owners');
    const common = { ...where, guildId: GUILD_A, channelId: CHANNEL_A };
    await runChild('modes', { ...common, action: 'persist', mode: 'deep', owner: 'bot-a' });
    const other = await runChild<Listed>('modes', { ...common, action: 'list', owner: 'bot-b' });
    expect(other.mine).toEqual([]);
    expect(other.all).toEqual([[CHANNEL_A, 'deep']]);
    const same = await runChild<Listed>('modes', { ...common, action: 'list', owner: 'bot-a' });
    expect(same.mine).toEqual([[CHANNEL_A, 'deep']]);
  }, 60_000);
});

describe.each(selectedStores())('reply claims are keyed by guild ($name)', (store) => {
  it('the same channel and message ids in two guilds are two claims', async () => {
    const instance = store.open();
    // Two instances on one store: the in-memory store is shared by passing the same object.
    const shared = store.name === 'memory' ? { store: createInMemoryStore() } : {};
    const a = createMemory(
      { storage: instance.storage, llm: null, workers: { enabled: false } },
      {
        ...instance.overrides,
        ...shared,
        instanceId: 'proc-a',
      },
    );
    const b = createMemory(
      { storage: instance.storage, llm: null, workers: { enabled: false } },
      {
        ...instance.overrides,
        ...shared,
        instanceId: 'proc-b',
      },
    );
    try {
      const ids = { channelId: CHANNEL_A, messageId: '930000000000000001' };
      expect(await a.claims.tryClaim({ guildId: GUILD_A, ...ids })).toBe(true);
      expect(await b.claims.tryClaim({ guildId: GUILD_A, ...ids })).toBe(false);
      expect(await b.claims.tryClaim({ guildId: GUILD_B, ...ids })).toBe(true);
      expect(await a.claims.release({ guildId: GUILD_B, ...ids })).toBe(false);
      expect(await a.claims.release({ guildId: GUILD_A, ...ids })).toBe(true);
      expect(await b.claims.tryClaim({ guildId: GUILD_A, ...ids })).toBe(true);
    } finally {
      await a.close();
      await b.close();
      await instance.cleanup();
    }
  });
});

import {
  createMemory,
  type Memory,
  type MemoryStore,
  type MessageEventInput,
  type ObserveReceipt,
} from '@permafrost/core';
import { afterEach, describe, expect, it } from 'vitest';
import { selectedStores } from './stores.js';

const GUILD = '510000000000000001';
const OTHER_GUILD = '510000000000000002';
const CHANNEL = '610000000000000001';
const [ALICE, BOB, CAROL, BOT] = [
  '111000000000000001',
  '111000000000000002',
  '111000000000000003',
  '111000000000000009',
];

let n = 0;
const event = (
  authorId: string,
  content: string,
  extra: Partial<MessageEventInput> = {},
): MessageEventInput => ({
  messageId: `71000000000${String(++n).padStart(7, '0')}`,
  guildId: GUILD,
  channelId: CHANNEL,
  authorId,
  content,
  createdAt: new Date(Date.UTC(2026, 7, 24, 12, 0, n)),
  authorUsername: `user${authorId.slice(-1)}`,
  authorDisplayName: `Member ${authorId.slice(-1)}`,
  ...extra,
});

/** A mixed burst: bots, opted-out, too short, a pattern, duplicates (in and across calls), an edit, another guild. */
function burst(): { before: MessageEventInput[]; batch: MessageEventInput[] } {
  const stored = event(ALICE, 'I moved to Lisbon last spring');
  const again = event(BOB, 'my cat is called Biscuit');
  return {
    before: [stored],
    batch: [
      event(ALICE, 'I work at the harbour office'),
      { ...stored },
      event(BOT, 'beep boop, I am a bot', { authorIsBot: true }),
      event(CAROL, 'I will not be remembered at all'),
      event(BOB, 'ok'),
      event(BOB, '!roll a twenty sided die'),
      again,
      { ...again },
      { ...stored, content: 'I moved to Porto last spring', edited: true },
      event(BOB, 'after the edit, I started rowing', { guildId: OTHER_GUILD }),
      event(ALICE, 'I play the cello on weekends'),
    ],
  };
}

const config = (storage: string) => ({
  storage,
  llm: null,
  workers: { enabled: false },
  observe: { ignorePatterns: ['^!\\w+'] },
});

async function prepared(storage: string, store?: MemoryStore): Promise<Memory> {
  const memory = createMemory(config(storage), store ? { store } : {});
  memory.registerBotId(BOT);
  await memory.admin.setOptOut({ guildId: GUILD, userId: CAROL, optedOut: true });
  return memory;
}

async function history(memory: Memory, guildId: string) {
  const rows = await memory.conversation.threadHistory({ guildId, channelId: CHANNEL, limit: 50 });
  return rows.map((r) => [r.messageId, r.content, r.authorId]);
}

const open: Memory[] = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()?.close({ drain: false });
});

for (const store of selectedStores()) {
  describe(`observeMany on ${store.name}`, () => {
    it('decides exactly as observe, one event at a time, would', async () => {
      const { before, batch } = burst();
      const one = await prepared(store.url());
      const many = await prepared(store.url());
      open.push(one, many);
      for (const e of before) {
        await one.observe(e);
        await many.observe(e);
      }
      const single: ObserveReceipt[] = [];
      for (const e of batch) single.push(await one.observe(e));
      const batched = await many.observeMany(batch);
      expect(batched).toEqual(single);
      expect(batched.map((r) => r.reason)).toEqual([
        null,
        'duplicate',
        'bot_author',
        'opted_out',
        'empty_content',
        'ignored_pattern',
        null,
        'duplicate',
        null,
        null,
        null,
      ]);
      for (const guildId of [GUILD, OTHER_GUILD])
        expect(await history(many, guildId)).toEqual(await history(one, guildId));
      expect(await many.identity.resolve({ guildId: GUILD, identifier: 'Member 2' })).toMatchObject({
        resolved: BOB,
      });
    });

    it('writes the rows in one store transaction, with one queue call', async () => {
      const { batch } = burst();
      const counted = { transactions: 0, enqueue: 0, enqueueMany: 0 };
      const real = await storeOf(store.url());
      const spy: MemoryStore = {
        ...real,
        transaction: (fn) => {
          counted.transactions++;
          return real.transaction(fn);
        },
        queue: new Proxy(real.queue, {
          get(target, name, receiver) {
            const value = Reflect.get(target, name, receiver);
            if (name === 'enqueue' || name === 'enqueueMany')
              return (...args: unknown[]) => {
                counted[name]++;
                return (value as (...a: unknown[]) => unknown).apply(target, args);
              };
            return typeof value === 'function' ? value.bind(target) : value;
          },
        }),
      };
      const memory = await prepared(store.url(), spy);
      open.push(memory);
      await memory.start();
      const plain = batch.filter((e) => !e.edited);
      counted.transactions = 0;
      const receipts = await memory.observeMany(plain);
      expect(receipts.filter((r) => r.status === 'accepted')).toHaveLength(5);
      expect(counted).toEqual({ transactions: 1, enqueue: 0, enqueueMany: 1 });
    });

    it('a failed write stores none of the batch and rejects every row', async () => {
      const real = await storeOf(store.url());
      const failing: MemoryStore = {
        ...real,
        queue: new Proxy(real.queue, {
          get(target, name, receiver) {
            const value = Reflect.get(target, name, receiver);
            if (name === 'enqueueMany')
              return async (...args: unknown[]) => {
                await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
                throw new Error('disk full after the rows were written');
              };
            return typeof value === 'function' ? value.bind(target) : value;
          },
        }),
      };
      const memory = await prepared(store.url(), failing);
      open.push(memory);
      const batch = [event(ALICE, 'I collect vintage maps'), event(BOB, 'I grow tomatoes on the balcony')];
      const receipts = await memory.observeMany(batch);
      expect(receipts.map((r) => [r.status, r.reason])).toEqual([
        ['rejected', 'storage_unavailable'],
        ['rejected', 'storage_unavailable'],
      ]);
      if (real.capabilities.transactions === 'atomic') expect(await history(memory, GUILD)).toEqual([]);
    });
  });
}

/** A store built from a storage URL the way createMemory builds it (through the registered factory). */
async function storeOf(url: string): Promise<MemoryStore> {
  const { resolveStoreFactory } = await import('@permafrost/core/internal');
  if (url === 'memory') {
    const { createInMemoryStore } = await import('@permafrost/core');
    return createInMemoryStore();
  }
  const scheme = url.startsWith('sqlite') ? 'sqlite' : 'mongodb';
  return (await resolveStoreFactory(scheme))(url, {});
}

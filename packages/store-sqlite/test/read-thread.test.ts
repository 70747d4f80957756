import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LogEvent, MemoryStore } from '@permafrost/core';
import { createMemory } from '@permafrost/core';
import { indexTerms, type MessageTextHit } from '@permafrost/core/store';
import { G1, G2, makeMessage } from '@permafrost/store-conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteConnection } from '../src/connection.js';
import { createSqliteStore } from '../src/index.js';
import { MessageTable } from '../src/message-table.js';
import { ReadThread, THREAD_MIN_INDEX_ROWS } from '../src/read-thread/read-thread.js';
import { SqliteConversationStore } from '../src/sqlite-conversation-store.js';
import { VecTable } from '../src/vec-table.js';

const WORDS = [
  'violin',
  'chess',
  'bread',
  'garden',
  'piano',
  'river',
  'coffee',
  'hiking',
  'lantern',
  'orbit',
];
const QUERIES = [['violin'], ['chess', 'river'], ['bread', 'piano', 'orbit', 'kazoo'], WORDS, ['nothing']];
const dist = join(import.meta.dirname, '..', 'dist', 'index.js');

/** A file whose message index is just big enough for the thread (most rows in G1, some in G2). */
async function bigFile(path: string): Promise<void> {
  const store = createSqliteStore({ path });
  await store.setup();
  const rows = Array.from({ length: THREAD_MIN_INDEX_ROWS }, (_, i) => {
    const words = Array.from({ length: 1 + (i % 5) }, (_, j) => WORDS[(i * (j + 7) + 3 * j) % WORDS.length]);
    if (i % 97 === 0) words.push('kazoo');
    return makeMessage({
      messageId: `k${String(i).padStart(6, '0')}`,
      guildId: i % 9 === 0 ? G2 : G1,
      channelId: `c${i % 40}`,
      content: words.join(' '),
    });
  });
  await store.queue.enqueueMany(rows, 1_000_000);
  await store.close();
}

const summary = (hits: readonly MessageTextHit[]) =>
  hits.map((h) => [h.message.messageId, h.message.content, h.score, h.fullMatchScore]);

describe('message keyword searches of a big index run on a thread of their own', () => {
  let dir: string;
  let path: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pf-kwthread-'));
    path = join(dir, 'big.db');
    await bigFile(path);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers what the store connection answers, and reads what was committed before it was asked', async () => {
    const logs: LogEvent[] = [];
    const store = createSqliteStore({ path, logger: (e) => logs.push(e) });
    const search = (guild: string, words: string[], limit: number) =>
      store.conversation.searchText(guild, indexTerms(words.join(' ')), limit);
    try {
      for (const guild of [G1, G2])
        for (const words of QUERIES)
          for (const limit of [1, 10, 100]) {
            const threaded = await search(guild, words, limit);
            // Inside a write transaction the search runs on the store's own connection.
            const own = await store.transaction(() => search(guild, words, limit));
            expect(summary(threaded)).toEqual(summary(own));
            if (words[0] !== 'nothing') expect(threaded.length).toBeGreaterThan(0);
          }
      await store.queue.enqueueMany(
        [makeMessage({ messageId: 'k-new', content: 'zeppelin violin' })],
        1_000_000,
      );
      expect((await search(G1, ['zeppelin'], 5)).map((h) => h.message.messageId)).toEqual(['k-new']);
    } finally {
      await store.close();
    }
    expect(logs.filter((e) => e.event === 'sqlite.read_thread_started')).toHaveLength(1);
    expect(logs.filter((e) => e.level === 'warn' || e.level === 'error')).toEqual([]);
  });

  it('answers the same once the thread ranks from its copy of the index, and after writes', async () => {
    const store = createSqliteStore({ path });
    const search = (words: string[], limit: number) =>
      store.conversation.searchText(G1, indexTerms(words.join(' ')), limit);
    const compare = async () => {
      for (const words of QUERIES)
        for (const limit of [5, 100]) {
          const threaded = await search(words, limit);
          const own = await store.transaction(() => search(words, limit));
          expect(summary(threaded)).toEqual(summary(own));
        }
    };
    try {
      // The first search starts the copy's build; the later rounds are ranked from it.
      for (let round = 0; round < 4; round++) {
        await compare();
        await new Promise((done) => setTimeout(done, 150));
      }
      await store.queue.enqueueMany(
        [makeMessage({ messageId: 'k-added', content: 'orbit orbit lantern' })],
        1_000_000,
      );
      await compare();
      await store.queue.markEdited(G1, 'k000001', 'orbit garden garden', false);
      await compare();
      await new Promise((done) => setTimeout(done, 300));
      await compare();
    } finally {
      await store.close();
    }
  });

  it('hands over the windows around the hits it was asked for, as channelWindows reads them', async () => {
    const store = createSqliteStore({ path });
    const ids = (list: readonly { messageId: string }[]) => list.map((m) => m.messageId);
    try {
      for (const words of QUERIES.slice(0, 3))
        for (const around of [1, 3]) {
          const terms = indexTerms(words.join(' '));
          const threaded = await store.conversation.searchText(G1, terms, 30, { windowsAround: around });
          const own = await store.transaction(() =>
            store.conversation.searchText(G1, terms, 30, { windowsAround: around }),
          );
          expect(threaded.length).toBeGreaterThan(0);
          const windows = await store.conversation.channelWindows(
            G1,
            threaded.map((h) => h.message),
            around,
          );
          for (const [i, hit] of threaded.entries()) {
            const want = windows[i];
            expect(ids(hit.window?.before ?? [])).toEqual(ids(want?.before ?? []));
            expect(ids(hit.window?.after ?? [])).toEqual(ids(want?.after ?? []));
            expect(ids(own[i]?.window?.before ?? [])).toEqual(ids(want?.before ?? []));
            expect(ids(own[i]?.window?.after ?? [])).toEqual(ids(want?.after ?? []));
          }
          expect(threaded.some((h) => (h.window?.before.length ?? 0) === around)).toBe(true);
        }
      // Not asked: no windows.
      const bare = await store.conversation.searchText(G1, indexTerms('violin'), 10);
      expect(bare.every((h) => h.window === undefined)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('never returns a message after forgetMessage reported it erased', async () => {
    const logs: LogEvent[] = [];
    const store = createSqliteStore({ path, logger: (e) => logs.push(e) });
    const memory = createMemory(
      { storage: 'memory', access: { requireAudience: false }, llm: null, workers: { enabled: false } },
      { store },
    );
    try {
      const message = {
        guildId: G1,
        channelId: 'c-forget',
        messageId: '990000000000000001',
        authorId: '990000000000000002',
        content: 'the quokka festival starts at noon',
        createdAt: new Date('2026-01-02T03:04:05Z'),
      };
      await memory.observe(message);
      await memory.flush();
      const found = async () =>
        (await memory.conversation.search({ guildId: G1, text: 'quokka festival' })).messages.map(
          (m) => m.message.messageId,
        );
      expect(await found()).toContain(message.messageId);
      await memory.forgetMessage({ guildId: G1, channelId: message.channelId, messageId: message.messageId });
      expect(await found()).not.toContain(message.messageId);
    } finally {
      await memory.close({ drain: false });
    }
    expect(logs.filter((e) => e.event === 'sqlite.read_thread_started')).toHaveLength(1);
    expect(logs.filter((e) => e.event === 'sqlite.read_thread_failed')).toEqual([]);
  });

  it('a search the thread cannot answer is answered on the store connection', async () => {
    const connection = new SqliteConnection({ path, busyTimeoutMs: 5000 });
    const failing = new ReadThread(join(dir, 'no-such-file.db'), 5000, undefined);
    const conversation = new SqliteConversationStore(
      connection,
      new MessageTable(connection, new VecTable(connection)),
      failing,
    );
    try {
      const terms = indexTerms('chess river');
      expect(failing.serves(THREAD_MIN_INDEX_ROWS)).toBe(true);
      const answered = await conversation.searchText(G1, terms, 20);
      expect(answered).toHaveLength(20);
      expect(failing.serves(THREAD_MIN_INDEX_ROWS)).toBe(false);
      const own = await connection.transaction(() => conversation.searchText(G1, terms, 20));
      expect(summary(answered)).toEqual(summary(own));
    } finally {
      await failing.close();
      await connection.close();
    }
  });

  it('a script that searches and never closes the store still ends, with its answer', () => {
    const script = join(dir, 'script.mjs');
    writeFileSync(
      script,
      `import { createSqliteStore } from ${JSON.stringify(pathToFileURL(dist).href)};
const logs = [];
const store = createSqliteStore({ path: ${JSON.stringify(path)}, logger: (e) => logs.push(e.event) });
const hits = await store.conversation.searchText(${JSON.stringify(G1)}, ['violin'], 3);
process.stdout.write(JSON.stringify({ hits: hits.length, logs }));
`,
    );
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ hits: 3, logs: ['sqlite.read_thread_started'] });
  });
});

describe('ReadThread', () => {
  it('serves big indexes of files only, and stops after a failure, reported once', async () => {
    const logs: LogEvent[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'pf-kwthread-'));
    try {
      expect(new ReadThread(':memory:', 5000, undefined).serves(1_000_000)).toBe(false);
      const thread = new ReadThread(join(dir, 'missing.db'), 5000, (e) => logs.push(e));
      expect(thread.serves(THREAD_MIN_INDEX_ROWS - 1)).toBe(false);
      expect(thread.serves(THREAD_MIN_INDEX_ROWS)).toBe(true);
      const asked = [thread.search(G1, ['chess'], 5), thread.search(G1, ['river'], 5)];
      for (const result of await Promise.allSettled(asked)) expect(result.status).toBe('rejected');
      expect(thread.serves(THREAD_MIN_INDEX_ROWS)).toBe(false);
      await expect(thread.search(G1, ['chess'], 5)).rejects.toThrow('not running');
      expect(logs.map((e) => `${e.level} ${e.event}`)).toEqual([
        'debug sqlite.read_thread_started',
        'warn sqlite.read_thread_failed',
      ]);
      await thread.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('close() answers the searches already sent, then ends the thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pf-kwthread-'));
    const path = join(dir, 'small.db');
    const store: MemoryStore = createSqliteStore({ path });
    try {
      await store.queue.enqueueMany([makeMessage({ content: 'violin lesson' })], 100);
      // The store brings its keyword index up to date before a search (a small index: on its own connection).
      expect(await store.conversation.searchText(G1, ['violin'], 5)).toHaveLength(1);
      const thread = new ReadThread(path, 5000, undefined);
      const asked = thread.search(G1, ['violin'], 5);
      await thread.close();
      expect((await asked).map((h) => h.message.content)).toEqual(['violin lesson']);
      expect(thread.serves(THREAD_MIN_INDEX_ROWS)).toBe(false);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

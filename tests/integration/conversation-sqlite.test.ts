import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProjects } from '../../scripts/tools.mjs';
import { ALICE, BOB, CH, G1, say, sqliteMemory, tempDir } from './helpers.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const { dir, cleanup } = tempDir();
afterAll(cleanup);
beforeAll(() => {
  buildProjects(['packages/core', 'packages/store-sqlite']);
}, 120_000);
let k = 0;
const file = () => join(dir, `conv-${++k}.db`);

/** The same port with some methods replaced (methods bound to the original object). */
function withOverrides<T extends object>(port: T, overrides: Partial<T>): T {
  const out: Record<string, unknown> = {};
  let proto: object | null = port;
  while (proto && proto !== Object.prototype) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const value = (port as Record<string, unknown>)[name];
      if (name !== 'constructor' && typeof value === 'function' && !(name in out))
        out[name] = (value as (...a: unknown[]) => unknown).bind(port);
    }
    proto = Object.getPrototypeOf(proto);
  }
  return { ...out, ...overrides } as T;
}

describe('conversation tier on SQLite', () => {
  it('recovers active modes and channel history after a restart', async () => {
    const path = file();
    const a = sqliteMemory(path, {}, { instanceId: 'bot-1' });
    await say(a.memory, a.clock, G1, ALICE, 'Alice', 'first message before the restart');
    await a.memory.conversation.recordReply({ guildId: G1, channelId: CH, content: 'noted!', botId: 'bot' });
    await a.memory.activeModes.persist({ guildId: G1, channelId: CH, mode: 'deep' });
    await a.memory.conversation.append({ sessionId: 'dm-1', role: 'user', content: 'hello from a session' });
    await a.memory.close();
    const b = sqliteMemory(path, {}, { instanceId: 'bot-1', clock: a.clock });
    expect((await b.memory.activeModes.list()).map((m) => [m.channelId, m.mode])).toEqual([[CH, 'deep']]);
    expect(
      (await b.memory.conversation.threadHistory({ guildId: G1, channelId: CH })).map((m) => m.content),
    ).toEqual(['first message before the restart', 'noted!']);
    expect((await b.memory.conversation.session('dm-1')).map((e) => e.content)).toEqual([
      'hello from a session',
    ]);
    const ctx = await b.memory.context({
      guildId: G1,
      channelId: CH,
      askerId: ALICE,
      text: 'hi',
      mode: 'instant',
    });
    expect(ctx.recent.map((m) => m.content)).toEqual(['first message before the restart', 'noted!']);
    await b.memory.close();
  });

  it('lets exactly one of two processes claim a message; the other takes over after the TTL', async () => {
    const path = file();
    const init = sqliteMemory(path);
    await init.memory.start();
    await init.memory.close();
    const racer = join(import.meta.dirname, 'fixtures', 'claim-racer.mjs');
    const race = (id: string, ttl: number) =>
      run(process.execPath, [racer, path, id, G1, CH, 'm-1', String(ttl)], { cwd: root }).then(
        (r) => JSON.parse(r.stdout) as { instanceId: string; won: boolean; at: number },
      );
    // The TTL is long enough for a process to start on a busy machine; the waits below are
    // measured from the moment the winner took the claim, not from when the test spawned it.
    const TTL = 8;
    const results = await Promise.all([race('proc-a', TTL), race('proc-b', TTL)]);
    const winner = results.find((r) => r.won);
    expect(results.filter((r) => r.won)).toHaveLength(1);
    const loser = results.find((r) => !r.won)?.instanceId as string;
    const retry = await race(loser, TTL);
    if (retry.at < (winner?.at ?? 0) + TTL * 1000) expect(retry.won).toBe(false);
    await new Promise((r) => setTimeout(r, Math.max(0, (winner?.at ?? 0) + TTL * 1000 + 200 - Date.now())));
    expect((await race(loser, TTL)).won).toBe(true);
  }, 60_000);

  it('serves the hot tier always and long-term memory by mode and trigger', async () => {
    const { memory, clock } = sqliteMemory(file());
    await memory.facts.remember({ guildId: G1, subjectId: ALICE, text: 'Alice’s favorite game is Hades' });
    for (let i = 0; i < 10; i++) await say(memory, clock, G1, BOB, 'Bob', `chat line ${i}`);
    const instant = await memory.context({
      guildId: G1,
      channelId: CH,
      askerId: ALICE,
      text: "what's my favorite game?",
      mode: 'instant',
    });
    expect(instant.recent).toHaveLength(8);
    expect(instant.longTerm).toBeNull();
    const normalNoTrigger = await memory.context({
      guildId: G1,
      channelId: CH,
      askerId: ALICE,
      text: 'nice weather today',
    });
    expect(normalNoTrigger).toMatchObject({ longTerm: null, trigger: null });
    const normal = await memory.context({
      guildId: G1,
      channelId: CH,
      askerId: ALICE,
      text: "what's my favorite game?",
    });
    expect(normal.trigger).toBe('my_preference');
    expect(normal.block).toContain('Hades');
    expect(normal.block).toContain('[RECENT CONVERSATION]');
    const deep = await memory.context({
      guildId: G1,
      channelId: CH,
      askerId: ALICE,
      text: 'nice weather today',
      mode: 'deep',
    });
    expect(deep.trigger).toBe('deep');
    expect(deep.longTerm?.injectionBlock).toContain('Hades');
    await memory.close();
  });

  it('caches long-term results, and a new fact about the asker invalidates them', async () => {
    const { memory } = sqliteMemory(file());
    await memory.facts.remember({ guildId: G1, subjectId: ALICE, text: 'Alice’s favorite game is Hades' });
    const q = { guildId: G1, channelId: CH, askerId: ALICE, text: 'remember when we talked about games?' };
    expect((await memory.context(q)).cached).toBe(false);
    expect((await memory.context(q)).cached).toBe(true);
    await memory.facts.remember({ guildId: G1, subjectId: ALICE, text: 'Alice also loves Celeste' });
    await new Promise((r) => setTimeout(r, 0));
    const after = await memory.context(q);
    expect(after.cached).toBe(false);
    expect(after.block).toContain('Celeste');
    const metrics = await memory.ops.metrics();
    expect(metrics.counters['context.cache_hits']).toBe(1);
    expect(metrics.counters['context.cache_misses']).toBe(2);
    await memory.close();
  });

  it('returns the hot tier within the deadline with a warning when long-term memory is slow', async () => {
    const path = file();
    const { createSqliteStore } = await import('@permafrost/store-sqlite');
    const store = createSqliteStore({ path });
    const slow = withOverrides(store.facts, {
      searchText: async (...args: Parameters<typeof store.facts.searchText>) => {
        await new Promise((r) => setTimeout(r, 600));
        return store.facts.searchText(...args);
      },
    });
    const { memory, clock } = sqliteMemory(
      path,
      { context: { longTermTimeoutMs: 150 } },
      {
        store: {
          ...store,
          facts: slow,
          setup: () => store.setup(),
          ping: () => store.ping(),
          close: () => store.close(),
          transaction: (fn) => store.transaction(fn),
        },
      },
    );
    await memory.facts.remember({ guildId: G1, subjectId: ALICE, text: 'Alice’s favorite game is Hades' });
    await say(memory, clock, G1, ALICE, 'Alice', 'hello there');
    const ctx = await memory.context({
      guildId: G1,
      channelId: CH,
      askerId: ALICE,
      text: 'remember when I told you my favorite game?',
    });
    expect(ctx.warnings).toContain('long_term_timeout');
    expect(ctx.longTerm).toBeNull();
    expect(ctx.recent.map((m) => m.content)).toEqual(['hello there']);
    expect((await memory.ops.metrics()).counters['context.timeouts']).toBe(1);
    await new Promise((r) => setTimeout(r, 700));
    await memory.close();
  });
});

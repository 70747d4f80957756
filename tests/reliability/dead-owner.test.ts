import { join } from 'node:path';
import { createMemory } from '@permafrost/core';
import '@permafrost/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChild } from './support/children.js';
import { ensureBuilt, tempDir } from './support/paths.js';
import { CHANNEL_A, chat, GUILD_A, member } from './support/world.js';

/**
 * A dead process's leases (issue #18 item 11): after a worker is SIGKILLed holding a batch, its
 * lease (120 s) is reclaimed once its heartbeat is a few beats old, not when the lease runs out,
 * and `flush({ report: true })` says what it could not take before that.
 */

const tmp = tempDir('dead-owner');
beforeAll(() => ensureBuilt(), 120_000);
afterAll(() => tmp.cleanup());

const ALICE = member(1);
const BATCH = 4;
const HEARTBEAT_SECONDS = 2;
const config = (path: string) =>
  ({
    storage: `sqlite://${path}`,
    llm: 'heuristic',
    workers: { enabled: false, maxAttempts: 3, backoffBaseSeconds: 0 },
    batching: { leaseSeconds: 120, heartbeatSeconds: HEARTBEAT_SECONDS, batchSizeMessages: BATCH },
  }) as const;

describe('a worker SIGKILLed holding a lease', () => {
  it('flush reports the leased messages, and takes them a few heartbeats after the death', async () => {
    const path = join(tmp.dir, 'dead.db');
    const seed = createMemory(config(path));
    for (let i = 0; i < BATCH; i++)
      await seed.observe(
        chat(`96000000000000000${i}`, ALICE, `I live in Lisbon and I keep ${i + 2} beehives`),
      );
    await seed.close({ drain: false });

    const child = startChild('worker', {
      path,
      crash: 'after-claim',
      llmUrl: 'http://127.0.0.1:9/v1',
      guildId: GUILD_A,
      leaseSeconds: 120,
      heartbeatSeconds: HEARTBEAT_SECONDS,
      batchSize: BATCH,
      maxMessagesPerCall: BATCH,
    });
    const exit = await child.exit;
    expect(exit.signal, exit.stderr).toBe('SIGKILL');
    const diedAt = performance.now();

    const memory = createMemory(config(path));
    try {
      const early = await memory.flush({ guildId: GUILD_A, report: true });
      // Checked only while the dead heartbeat is surely fresh (3 beats): nothing to take yet.
      if (performance.now() - diedAt < 2 * HEARTBEAT_SECONDS * 1000)
        expect(early).toEqual({ batches: 0, leasedElsewhere: BATCH, waiting: 0 });
      const wait = 3 * HEARTBEAT_SECONDS * 1000 + 500 - (performance.now() - diedAt);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const later = await memory.flush({ guildId: GUILD_A, report: true });
      expect(later.leasedElsewhere).toBe(0);
      expect(later.waiting).toBe(0);
      expect(later.batches).toBeGreaterThanOrEqual(1);
      // Far sooner than the 120 s lease.
      expect(performance.now() - diedAt).toBeLessThan(30_000);
      const history = await memory.conversation.threadHistory({ guildId: GUILD_A, channelId: CHANNEL_A });
      expect(history).toHaveLength(BATCH);
      const facts = await memory.facts.getAll({ guildId: GUILD_A, subjectId: ALICE.id });
      expect(facts.length).toBeGreaterThan(0);
    } finally {
      await memory.close({ drain: false });
    }
  }, 90_000);

  it('a live process keeps its lease: renewals every heartbeat keep it from looking dead', async () => {
    const path = join(tmp.dir, 'live.db');
    const memory = createMemory(config(path));
    await memory.observe(chat('961000000000000001', ALICE, 'I live in Lisbon and I keep bees on my roof'));
    // The batch is held by this process for longer than three heartbeats: a slow model.
    const slow = createMemory(config(path), {
      llm: {
        model: 'slow',
        async complete() {
          await new Promise((r) => setTimeout(r, 4 * HEARTBEAT_SECONDS * 1000));
          throw new Error('model gave up');
        },
      },
      instanceId: 'slow-process',
    });
    const running = slow.flush({ guildId: GUILD_A, report: true });
    await new Promise((r) => setTimeout(r, 3 * HEARTBEAT_SECONDS * 1000 + 1000));
    const meanwhile = await memory.flush({ guildId: GUILD_A, report: true });
    expect(meanwhile).toEqual({ batches: 0, leasedElsewhere: 1, waiting: 0 });
    await running;
    await slow.close({ drain: false });
    await memory.close({ drain: false });
  }, 60_000);
});

import { createMemory, type Memory, type MemoryConfigInput } from '@permafrost/core';
import { FixedClock } from '@permafrost/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { closeStores, type StoreInstance, selectedStores } from './support/stores.js';
import { chat, GUILD_A, member } from './support/world.js';

afterAll(closeStores);
/**
 * Flood fairness (issue #18 item 8): one member's flood spends only that member's share — of the
 * guild queue (observe token bucket: `observe.memberBurst`, `observe.memberMessagesPerMinute`), of
 * extraction (`budgets.memberBatchesPerHour`) and of names (`observe.maxAliasesPerMember`) — and
 * never gets another member's message rejected.
 */

const MALLORY = member(13);
const others = Array.from({ length: 10 }, (_, i) => member(i + 1));
let seq = 0;
const nextId = () => String(970000000000000000n + BigInt(++seq));

function open(
  instance: StoreInstance,
  config: MemoryConfigInput = {},
): { memory: Memory; clock: FixedClock } {
  const clock = new FixedClock(new Date('2026-03-01T12:00:00Z'));
  const memory = createMemory(
    { storage: instance.storage, llm: 'heuristic', workers: { enabled: false }, ...config },
    { ...instance.overrides, clock },
  );
  return { memory, clock };
}

const say = (memory: Memory, clock: FixedClock, who: typeof MALLORY, text: string, name?: string) =>
  memory.observe({
    ...chat(nextId(), who, text, { at: clock.now() }),
    ...(name ? { authorDisplayName: name } : {}),
  });

describe.each(selectedStores())('one member cannot lock a server ($name)', (store) => {
  it('a flood larger than the guild queue: the flooder is cut at its share, every other member is accepted', async () => {
    const instance = store.open();
    const { memory, clock } = open(instance, { observe: { maxQueueDepthPerGuild: 400 } });
    try {
      const statuses = new Map<string, number>();
      for (let i = 0; i < 1_000; i++) {
        const r = await say(memory, clock, MALLORY, `spam spam number ${i} buy my coin now`);
        const k = `${r.status}:${r.reason}`;
        statuses.set(k, (statuses.get(k) ?? 0) + 1);
      }
      // Default share: a quarter of the guild queue (400 / 4).
      expect(Object.fromEntries(statuses)).toEqual({
        'accepted:null': 100,
        'rejected:member_over_rate': 900,
      });
      for (const m of others)
        for (let i = 0; i < 20; i++) {
          const r = await say(memory, clock, m, `I keep ${i + 2} beehives near Lisbon`);
          expect(r.status).toBe('accepted');
        }
    } finally {
      await memory.close({ drain: false });
      await instance.cleanup();
    }
  }, 120_000);

  it('observe.memberBurst and observe.memberMessagesPerMinute: the burst, then the refill rate', async () => {
    const instance = store.open();
    const { memory, clock } = open(instance, { observe: { memberBurst: 5, memberMessagesPerMinute: 2 } });
    try {
      const burst = [];
      for (let i = 0; i < 8; i++)
        burst.push((await say(memory, clock, MALLORY, `message number ${i} here`)).status);
      expect(burst.filter((s) => s === 'accepted')).toHaveLength(5);
      clock.advanceSeconds(60);
      const refill = [];
      for (let i = 0; i < 4; i++)
        refill.push((await say(memory, clock, MALLORY, `later message ${i} here`)).status);
      expect(refill).toEqual(['accepted', 'accepted', 'rejected', 'rejected']);
      expect((await say(memory, clock, others[0] as typeof MALLORY, 'I am still welcome here')).status).toBe(
        'accepted',
      );
    } finally {
      await memory.close({ drain: false });
      await instance.cleanup();
    }
  });

  it('observe.maxAliasesPerMember: a new display name on every message stops adding aliases at the cap', async () => {
    const instance = store.open();
    const { memory, clock } = open(instance, { observe: { maxAliasesPerMember: 3 } });
    try {
      for (let i = 0; i < 40; i++)
        await say(memory, clock, MALLORY, `hello number ${i} friends`, `Name${i}x`);
      const aliases = await memory.identity.aliasesOf({ guildId: GUILD_A, userId: MALLORY.id });
      expect(aliases).toHaveLength(3);
    } finally {
      await memory.close({ drain: false });
      await instance.cleanup();
    }
  });

  it('budgets.memberBatchesPerHour: the flooder waits after its share of extraction, others are extracted', async () => {
    const instance = store.open();
    const { memory, clock } = open(instance, {
      budgets: { memberBatchesPerHour: 2 },
      batching: { batchSizeMessages: 2, maxMessagesPerCall: 2 },
    });
    const byMember = new Map<string, number>();
    memory.events.on('BatchCompleted', (e) => {
      for (const k of e.subjectKeys) byMember.set(k, (byMember.get(k) ?? 0) + 1);
    });
    try {
      for (let i = 0; i < 20; i++)
        await say(memory, clock, MALLORY, `I live in Porto and I own ${i + 2} cats`);
      const alice = others[0] as typeof MALLORY;
      for (let i = 0; i < 4; i++)
        await say(memory, clock, alice, `I live in Lisbon and I keep ${i + 2} bees`);
      const first = await memory.flush({ guildId: GUILD_A, report: true });
      await new Promise((r) => setTimeout(r, 20));
      expect(byMember.get(MALLORY.id)).toBe(2);
      expect(byMember.get(alice.id)).toBe(2);
      expect(first.waiting).toBe(16);
      clock.advanceSeconds(3600);
      const second = await memory.flush({ guildId: GUILD_A, report: true });
      await new Promise((r) => setTimeout(r, 20));
      expect(byMember.get(MALLORY.id)).toBe(4);
      expect(second.waiting).toBe(12);
    } finally {
      await memory.close({ drain: false });
      await instance.cleanup();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { createInMemoryStore, ErrorCode, MemoryError, type MessageEventInput } from '../../src/index.js';
import { ALICE, CHANNEL, GUILD, harness } from './helpers.js';

const OTHER_GUILD = '500000000000000002';

const code = (call: () => Promise<unknown>) =>
  call().then(
    () => null,
    (e: unknown) => (MemoryError.is(e) ? e.code : 'raw'),
  );

describe('memory.cursors', () => {
  it('keeps a value per guild and key, replaced by the next set', async () => {
    const { memory } = harness();
    expect(await memory.cursors.get({ guildId: GUILD, key: 'discord:history:1' })).toBeNull();
    await memory.cursors.set({ guildId: GUILD, key: 'discord:history:1', value: '{"top":"5"}' });
    await memory.cursors.set({ guildId: OTHER_GUILD, key: 'discord:history:1', value: 'other' });
    await memory.cursors.set({ guildId: GUILD, key: 'discord:history:1', value: '{"top":"9"}' });
    expect(await memory.cursors.get({ guildId: GUILD, key: 'discord:history:1' })).toBe('{"top":"9"}');
    expect(await memory.cursors.get({ guildId: OTHER_GUILD, key: 'discord:history:1' })).toBe('other');
    await memory.close();
  });

  it("never reads or overwrites core's own cursors", async () => {
    const store = createInMemoryStore();
    const { memory } = harness({}, { store });
    await store.cursors.setCursor(GUILD, 'maintenance_at', '2026-01-01T00:00:00.000Z');
    expect(await memory.cursors.get({ guildId: GUILD, key: 'maintenance_at' })).toBeNull();
    await memory.cursors.set({ guildId: GUILD, key: 'maintenance_at', value: 'x' });
    expect(await store.cursors.getCursor(GUILD, 'maintenance_at')).toBe('2026-01-01T00:00:00.000Z');
    await memory.close();
  });

  it('validates keys and values (SCHEMA_INVALID, nothing stored)', async () => {
    const { memory } = harness();
    const set = memory.cursors.set as (input: unknown) => Promise<void>;
    for (const input of [
      { guildId: GUILD, key: 'has space', value: 'v' },
      { guildId: GUILD, key: '', value: 'v' },
      { guildId: GUILD, key: 'k'.repeat(201), value: 'v' },
      { guildId: GUILD, key: 'k', value: '' },
      { guildId: GUILD, key: 'k', value: 'v'.repeat(4_097) },
      { guildId: GUILD, key: 'k', value: 7 },
      { guildId: GUILD, key: 'k', value: 'v', extra: true },
    ])
      expect(await code(() => set(input))).toBe(ErrorCode.SCHEMA_INVALID);
    expect(await memory.cursors.get({ guildId: GUILD, key: 'k' })).toBeNull();
    await memory.close();
  });
});

describe('observeMany({ history: true })', () => {
  const event = (n: number, edited = false): MessageEventInput => ({
    messageId: `71000000000000${String(n).padStart(4, '0')}`,
    guildId: GUILD,
    channelId: CHANNEL,
    authorId: ALICE,
    authorUsername: 'alice',
    content: `an old message number ${n} from the channel history`,
    createdAt: new Date(Date.UTC(2025, 0, 1, 0, n)),
    edited,
  });

  it("imports past messages without spending the member's live observe rate", async () => {
    const { memory } = harness({ observe: { memberBurst: 2, memberMessagesPerMinute: 1 } });
    const history = Array.from({ length: 6 }, (_, i) => event(i));
    const receipts = await memory.observeMany(history, { history: true });
    expect(receipts.map((r) => r.status)).toEqual(Array(6).fill('accepted'));
    // The member's live messages still have their whole burst.
    expect((await memory.observeMany([event(10), event(11)])).map((r) => r.status)).toEqual([
      'accepted',
      'accepted',
    ]);
    expect((await memory.observe(event(12))).reason).toBe('member_over_rate');
    await memory.close();
  });

  it('applies every other rule: duplicates are ignored, options are validated', async () => {
    const { memory } = harness();
    await memory.observeMany([event(1)], { history: true });
    const again = await memory.observeMany([event(1)], { history: true });
    expect(again[0]).toMatchObject({ status: 'ignored', reason: 'duplicate' });
    const observeMany = memory.observeMany.bind(memory) as (
      events: unknown,
      options: unknown,
    ) => Promise<unknown>;
    expect(await code(() => observeMany([event(2)], { history: 'yes' }))).toBe(ErrorCode.SCHEMA_INVALID);
    expect(await code(() => observeMany([event(2)], { backfill: true }))).toBe(ErrorCode.SCHEMA_INVALID);
    expect(await code(() => observeMany([event(2)], null))).toBe(ErrorCode.SCHEMA_INVALID);
    await memory.close();
  });
});

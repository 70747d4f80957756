import { describe, expect, it } from 'vitest';
import { MemoryError } from '../../src/index.js';
import { ALICE, BOB, BOT, GUILD, harness } from './helpers.js';

const code = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    return MemoryError.is(e) ? e.code : 'other';
  }
};

describe('facts api', () => {
  it('remembers manual facts as core, reinforcing exact repeats', async () => {
    const { memory } = harness();
    const fact = await memory.facts.remember({
      guildId: GUILD,
      subjectId: ALICE,
      text: 'Alice is allergic to peanuts',
      category: 'personal',
      actorId: ALICE,
    });
    expect(fact).toMatchObject({
      tier: 'core',
      expiresAt: null,
      attribution: { type: 'manual', actorId: ALICE },
      scope: 'user',
    });
    const again = await memory.facts.remember({
      guildId: GUILD,
      subjectId: ALICE,
      text: 'alice is  allergic to peanuts',
    });
    expect(again.id).toBe(fact.id);
    expect(again.occurrences).toBe(2);
    const server = await memory.facts.remember({
      guildId: GUILD,
      subjectId: null,
      text: 'Game night is every Friday at 8pm',
    });
    expect(server.scope).toBe('server');
    await memory.close();
  });

  it('refuses bots, opted-out members and unusable text', async () => {
    const { memory } = harness();
    memory.registerBotId(BOT);
    await memory.admin.setOptOut({ guildId: GUILD, userId: BOB, optedOut: true });
    expect(
      await code(memory.facts.remember({ guildId: GUILD, subjectId: BOT, text: 'The bot likes long walks' })),
    ).toBe('SUBJECT_NOT_ALLOWED');
    expect(
      await code(memory.facts.remember({ guildId: GUILD, subjectId: BOB, text: 'Bob likes long walks' })),
    ).toBe('SUBJECT_NOT_ALLOWED');
    expect(await code(memory.facts.remember({ guildId: GUILD, subjectId: ALICE, text: 'short' }))).toBe(
      'SCHEMA_INVALID',
    );
    expect(
      await code(
        memory.facts.remember({ guildId: GUILD, subjectId: ALICE, text: 'Alice has id 123456789012345678' }),
      ),
    ).toBe('SCHEMA_INVALID');
    expect(
      await code(memory.facts.remember({ guildId: '', subjectId: ALICE, text: 'Alice likes long walks' })),
    ).toBe('SCHEMA_INVALID');
    expect(await code(memory.facts.get({ guildId: GUILD, factId: 'fct_missing' }))).toBe('NOT_FOUND');
    await memory.close();
  });

  it('updates in place keeping the previous text in history, and forgets without deleting', async () => {
    const { memory } = harness();
    const f = await memory.facts.remember({
      guildId: GUILD,
      subjectId: ALICE,
      text: 'Alice works at Acme Corp',
    });
    const u = await memory.facts.update({
      guildId: GUILD,
      factId: f.id,
      text: 'Alice works at Globex Corp',
      reason: 'new job',
      actorId: ALICE,
    });
    expect(u).toMatchObject({ id: f.id, text: 'Alice works at Globex Corp', version: f.version + 1 });
    const history = await memory.facts.history({ guildId: GUILD, factId: f.id });
    expect(history.map((h) => [h.kind, h.previousText])).toEqual([
      ['created', null],
      ['updated', 'Alice works at Acme Corp'],
    ]);
    const gone = await memory.facts.forget({ guildId: GUILD, factId: f.id, reason: 'asked' });
    expect(gone.validUntil).not.toBeNull();
    expect(await memory.facts.getAll({ guildId: GUILD, subjectId: ALICE })).toEqual([]);
    expect((await memory.facts.get({ guildId: GUILD, factId: f.id })).text).toBe(
      'Alice works at Globex Corp',
    );
    const all = await memory.facts.listForSubject({ guildId: GUILD, subjectId: ALICE, activeOnly: false });
    expect(all.items.map((x) => x.id)).toEqual([f.id]);
    await memory.close();
  });

  it('pages a subject’s facts with a cursor and samples randomly', async () => {
    const { memory } = harness();
    for (let i = 0; i < 7; i++)
      await memory.facts.remember({
        guildId: GUILD,
        subjectId: ALICE,
        text: `Alice owns board game number ${i}`,
      });
    const p1 = await memory.facts.listForSubject({ guildId: GUILD, subjectId: ALICE, limit: 4 });
    const p2 = await memory.facts.listForSubject({
      guildId: GUILD,
      subjectId: ALICE,
      limit: 4,
      cursor: p1.nextCursor as string,
    });
    expect(new Set([...p1.items, ...p2.items].map((f) => f.id)).size).toBe(7);
    expect(p2.nextCursor).toBeNull();
    const sample = await memory.facts.getAll({ guildId: GUILD, subjectId: ALICE, random: true, limit: 3 });
    expect(sample).toHaveLength(3);
    await memory.close();
  });
});

describe('facts.remember observedAt', () => {
  it('stores the date the fact was learned, and recall matches time expressions against it', async () => {
    const { memory } = harness();
    const march = await memory.facts.remember({
      guildId: GUILD,
      subjectId: ALICE,
      text: 'Alice ran a race in the rain',
      observedAt: '2026-03-14T09:30:00Z',
    });
    expect(march.observedAt.toISOString()).toBe('2026-03-14T09:30:00.000Z');
    expect((await memory.facts.get({ guildId: GUILD, factId: march.id })).observedAt.toISOString()).toBe(
      '2026-03-14T09:30:00.000Z',
    );
    const july = await memory.facts.remember({
      guildId: GUILD,
      subjectId: ALICE,
      text: 'Alice ran a race by the river',
      observedAt: new Date('2026-07-02T18:00:00Z'),
    });
    const now = await memory.facts.remember({
      guildId: GUILD,
      subjectId: ALICE,
      text: 'Alice ran a race in the park',
    });
    expect(now.observedAt.toISOString()).toBe('2026-08-24T12:00:00.000Z');
    const inMarch = await memory.recall({ guildId: GUILD, text: 'which race did Alice run in March 2026' });
    expect(inMarch.facts[0]?.fact.id).toBe(march.id);
    const inJuly = await memory.recall({ guildId: GUILD, text: 'which race did Alice run in July 2026' });
    expect(inJuly.facts[0]?.fact.id).toBe(july.id);
    await memory.close();
  });

  it('facts learned in one channel close in time share their conversation in recall', async () => {
    const { memory } = harness();
    const channel = { channelId: 'c-trip', parentId: null };
    const at = (minute: number) => new Date(Date.parse('2026-05-01T10:00:00Z') + minute * 60_000);
    const remember = (text: string, minute: number, where: typeof channel | null = channel) =>
      memory.facts.remember({
        guildId: GUILD,
        subjectId: ALICE,
        text,
        observedAt: at(minute),
        ...(where ? { channel: where } : {}),
      });
    await remember('Alice hiked the Kalalau trail in Kauai', 0);
    const sameTalk = await remember('Alice got badly sunburnt on that vacation', 10);
    const laterTalk = await remember('Alice got a new bicycle for commuting', 600);
    const elsewhere = await remember('Alice got tickets for a jazz concert', 5, {
      channelId: 'c-other',
      parentId: null,
    });
    const nowhere = await remember('Alice got a library card', 5, null);
    const result = await memory.recall({
      guildId: GUILD,
      text: 'what happened on the Kalalau trail hike, and what did Alice get',
      topK: 10,
      maxPerSubject: 10,
    });
    const context = new Map(result.facts.map((f) => [f.fact.id, f.components.context]));
    expect(context.size).toBe(5);
    expect(context.get(sameTalk.id)).toBeGreaterThan(0);
    for (const other of [laterTalk, elsewhere, nowhere]) expect(context.get(other.id)).toBe(0);
    await memory.close();
  });

  it('rejects dates after now, naive timestamps and non-dates, storing nothing', async () => {
    const { memory } = harness();
    const base = { guildId: GUILD, subjectId: ALICE, text: 'Alice collects vintage postcards' };
    for (const observedAt of [
      '2026-08-25T12:00:00Z',
      '2026-03-14T09:30:00',
      'last tuesday',
      17,
      new Date(Number.NaN),
    ])
      expect(await code(memory.facts.remember({ ...base, observedAt } as never))).toBe('SCHEMA_INVALID');
    expect((await memory.facts.getAll({ guildId: GUILD, subjectId: ALICE })).length).toBe(0);
    await memory.close();
  });
});

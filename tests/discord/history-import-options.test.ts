import { ErrorCode, MemoryError } from '@permafrost/core';
import { type ImportHistoryOptions, importChannelHistory } from '@permafrost/discord';
import type { GuildTextBasedChannel } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, ids, startHarness } from './harness.js';
import { historyFilters, storedHistory } from './history-fixture.js';

const G = ids.guild;
const STEP = 10_000;

describe('importChannelHistory options', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  const textChannel = (id: string): GuildTextBasedChannel => {
    const channel = h.client.channels.cache.get(id);
    if (!channel?.isTextBased() || channel.isDMBased()) throw new Error('not a guild text channel');
    return channel;
  };
  const seed = (channelId: string, count: number, authors: readonly string[], startAt: number) =>
    h.emu.seedHistory(
      channelId,
      Array.from({ length: count }, (_, i) => ({
        authorId: authors[i % authors.length] as string,
        content: `history line ${i} about gardening`,
      })),
      { startAt, stepMs: STEP },
    );

  it('paces requests, fetches uncached authors once, and honours limitPerChannel and since across runs', async () => {
    h = await startHarness({ setup: historyFilters });
    const startAt = Date.now() - 86_400_000;
    const seeded = seed(ids.general, 250, [ids.alice, ids.quinn], startAt);
    const guild = h.client.guilds.cache.get(G);
    guild?.members.cache.delete(ids.alice);
    guild?.members.cache.delete(ids.quinn);
    const base = { memory: h.memory, channels: [textChannel(ids.general)], filters: historyFilters };

    const t0 = Date.now();
    const first = await importChannelHistory({ ...base, maxRequestsPerSecond: 20, limitPerChannel: 120 });
    expect(first).toMatchObject({ fetched: 120, stopped: null, requests: 4 });
    expect(first.channels[0]).toMatchObject({ status: 'imported', complete: false, fetched: 120 });
    // Two pages (100 + 20) and one member request per uncached author, at most 20 per second.
    const mine = h.emu.requests.filter((r) => r.at >= t0);
    expect(mine.map((r) => r.path).sort()).toEqual(
      [
        `/channels/${ids.general}/messages`,
        `/channels/${ids.general}/messages`,
        `/guilds/${G}/members/${ids.alice}`,
        `/guilds/${G}/members/${ids.quinn}`,
      ].sort(),
    );
    // Turns are 50 ms apart and the first cannot come before t0, so the fourth request cannot
    // arrive before t0 + 150 ms (arrival gaps may jitter either way; timers may round by a ms).
    expect(Math.max(...mine.map((r) => r.at)) - t0).toBeGreaterThanOrEqual(3 * 50 - 5);
    expect(mine[0]?.query).toMatchObject({ limit: '100' });
    expect(mine.at(-1)?.query).toMatchObject({ limit: '20', before: seeded[150]?.id });
    // The fetched member's roles and nickname apply as they do live: Quinn's role is ignored.
    const stored = await storedHistory(h.memory, ids.general);
    expect(stored.map((m) => m.messageId)).toEqual(
      seeded
        .slice(130)
        .filter((_, i) => i % 2 === 0)
        .map((m) => m.id),
    );
    expect(new Set(stored.map((m) => m.authorName))).toEqual(new Set(['Ally']));

    // `since`: only down to message 50's time; then without it, to the first message.
    const second = await importChannelHistory({ ...base, since: new Date(startAt + 50 * STEP) });
    expect([second.fetched, second.channels[0]?.complete]).toEqual([80, false]);
    const third = await importChannelHistory(base);
    expect([third.fetched, third.channels[0]?.complete, third.duplicates]).toEqual([50, true, 0]);
    expect((await storedHistory(h.memory, ids.general)).map((m) => m.messageId)).toEqual(
      seeded.filter((_, i) => i % 2 === 0).map((m) => m.id),
    );
    // Authors are fetched once per run at most; nobody was fetched twice in the first run.
    expect(h.emu.requestsTo('GET', `/guilds/${G}/members/${ids.alice}`)).toHaveLength(1);
  });

  it('stops as stalled while the memory queue is full, and the next run completes once it drained', async () => {
    h = await startHarness({
      setup: historyFilters,
      // Extraction drains the queue at once (no per-member hourly share in the way).
      config: {
        llm: 'heuristic',
        observe: { maxQueueDepthPerGuild: 150 },
        budgets: { memberBatchesPerHour: 1_000 },
      },
    });
    const seeded = seed(ids.offTopic, 300, [ids.alice, ids.bob], Date.now() - 86_400_000);
    const options: ImportHistoryOptions = {
      memory: h.memory,
      channels: [textChannel(ids.offTopic)],
      maxRequestsPerSecond: Number.POSITIVE_INFINITY,
      maxStallMs: 300,
    };
    const stalled = await importChannelHistory(options);
    expect(stalled.stopped).toBe('stalled');
    expect(stalled.stored).toBe(150);
    expect(stalled.channels[0]?.status).toBe('interrupted');
    await h.memory.flush();
    const done = await importChannelHistory(options);
    expect(done.stopped).toBeNull();
    expect(done.stored).toBe(150);
    expect((await storedHistory(h.memory, ids.offTopic)).map((m) => m.messageId)).toEqual(
      seeded.map((m) => m.id),
    );
  });

  it('rejects bad options (SCHEMA_INVALID, values never echoed) and does nothing when already aborted', async () => {
    h = await startHarness();
    const guild = h.client.guilds.cache.get(G);
    if (!guild) throw new Error('no guild');
    const bad = async (extra: Partial<ImportHistoryOptions>) =>
      importChannelHistory({ memory: h.memory, guild, ...extra }).then(
        () => [],
        (e: unknown) =>
          MemoryError.is(e, ErrorCode.SCHEMA_INVALID) ? e.issues.map((i) => i.path[0]) : ['?'],
      );
    expect(await bad({ channels: [] })).toEqual(['guild']);
    expect(await bad({ maxRequestsPerSecond: 0 })).toEqual(['maxRequestsPerSecond']);
    expect(await bad({ maxRequestsPerSecond: 51 })).toEqual(['maxRequestsPerSecond']);
    expect(await bad({ limitPerChannel: 1.5 })).toEqual(['limitPerChannel']);
    expect(await bad({ since: new Date(Number.NaN) })).toEqual(['since']);
    const before = h.emu.requests.length;
    const aborted = await importChannelHistory({ memory: h.memory, guild, signal: AbortSignal.abort() });
    expect(aborted).toMatchObject({ stopped: 'aborted', requests: 0, fetched: 0, channels: [] });
    expect(h.emu.requests.length).toBe(before);
  });
});

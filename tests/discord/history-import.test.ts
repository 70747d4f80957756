import { type ImportProgress, importChannelHistory } from '@permafrost/discord';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from './command-helpers.js';
import { type Harness, ids, startHarness } from './harness.js';
import {
  hids,
  historyFilters,
  historyGuildSeed,
  kept,
  SEEDED,
  seedServerHistory,
  storedHistory,
} from './history-fixture.js';

const G = ids.guild;
const IMPORTED = [ids.general, ids.offTopic, hids.random, ids.thread, hids.archived];

describe('importChannelHistory on the emulator (5,200 messages, 3 channels and 2 threads)', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('interrupted halfway, resumed: the stored history equals the server’s, nothing duplicated', async () => {
    h = await startHarness({ guild: historyGuildSeed(), setup: historyFilters });
    seedServerHistory(h.emu);
    await h.memory.admin.setOptOut({ guildId: G, userId: ids.carol, optedOut: true });
    const guild = h.client.guilds.cache.get(G);
    if (!guild) throw new Error('guild not cached');
    const options = {
      memory: h.memory,
      guild,
      filters: historyFilters,
      maxRequestsPerSecond: Number.POSITIVE_INFINITY,
    };

    // First run: aborted from the progress callback once 2,500 messages were read.
    const controller = new AbortController();
    const progress: ImportProgress[] = [];
    const first = await importChannelHistory({
      ...options,
      signal: controller.signal,
      onProgress: (p) => {
        progress.push(p);
        if (p.totals.fetched >= 2_500) controller.abort();
      },
    });
    expect(first.stopped).toBe('aborted');
    expect(first.fetched).toBeGreaterThanOrEqual(2_500);
    expect(first.fetched).toBeLessThan(2_700);
    const fetchedSoFar = progress.map((p) => p.totals.fetched);
    expect(fetchedSoFar).toEqual([...fetchedSoFar].sort((a, b) => a - b));
    expect(first.channels.filter((c) => c.status === 'interrupted').length).toBeGreaterThan(0);

    // Second run: continues where the first stopped; no page is read twice.
    const second = await importChannelHistory(options);
    expect(second.stopped).toBeNull();
    expect(second.duplicates).toBe(0);
    expect(first.fetched + second.fetched).toBe(5_200);
    const byId = new Map(second.channels.map((c) => [c.channelId, c]));
    for (const id of IMPORTED) expect(byId.get(id)).toMatchObject({ status: 'imported', complete: true });
    expect(byId.get(hids.modsLog)?.status).toBe('ignored');
    expect(byId.get(hids.secret)?.status).toBe('no_access');
    expect(byId.get(ids.ignoredThread)).toMatchObject({ status: 'imported', fetched: 0 });

    // The stored history of each channel is the server's: same ids, content, authors, order.
    for (const channelId of IMPORTED) {
      const expected = h.emu.channelMessages(channelId).filter(kept);
      const stored = await storedHistory(h.memory, channelId);
      expect(stored.map((m) => [m.messageId, m.authorId, m.content])).toEqual(
        expected.map((m) => [m.id, m.author.id, m.content]),
      );
      const parent =
        channelId === ids.thread ? ids.general : channelId === hids.archived ? ids.offTopic : null;
      expect(new Set(stored.map((m) => m.threadParentId))).toEqual(new Set([parent]));
    }
    // Bots, the ignored role, the opted-out member and the ignored channel are absent.
    const total = SEEDED.filter(([c]) => IMPORTED.includes(c)).reduce((n, [, count]) => n + count, 0);
    const keptCount = IMPORTED.reduce((n, c) => n + h.emu.channelMessages(c).filter(kept).length, 0);
    expect(first.stored + second.stored).toBe(keptCount);
    expect(first.skipped + second.skipped).toBe(total - keptCount);
    expect(await storedHistory(h.memory, hids.modsLog)).toEqual([]);
    expect(await storedHistory(h.memory, hids.secret)).toEqual([]);
    const general = await storedHistory(h.memory, ids.general);
    expect(general.find((m) => m.authorId === ids.alice)?.authorName).toBe('Ally');
    const reply = general.find((m) => m.replyToMessageId !== null);
    expect(reply?.replyToMessageId).toBe(h.emu.channelMessages(ids.general)[0]?.id);

    // A third run reads one page per channel and stores nothing.
    const third = await importChannelHistory(options);
    expect([third.fetched, third.stored, third.stopped]).toEqual([0, 0, null]);

    // New messages (observed live meanwhile) are caught up as duplicates; nothing is stored twice.
    const live = h.emu.sendMessage({
      channelId: ids.general,
      authorId: ids.bob,
      content: 'I moved to Porto',
    });
    await waitUntil(async () =>
      (await storedHistory(h.memory, ids.general)).some((m) => m.messageId === live.id),
    );
    const fourth = await importChannelHistory(options);
    expect([fourth.fetched, fourth.stored, fourth.duplicates]).toEqual([1, 0, 1]);
    expect((await storedHistory(h.memory, ids.general)).length).toBe(general.length + 1);
  }, 120_000);
});

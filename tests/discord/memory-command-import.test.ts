import { afterEach, describe, expect, it } from 'vitest';
import { click, componentByLabel, isEphemeral, run, waitUntil } from './command-helpers.js';
import { type Harness, ids, startHarness } from './harness.js';
import {
  hids,
  historyFilters,
  historyGuildSeed,
  kept,
  seedServerHistory,
  storedHistory,
} from './history-fixture.js';

const G = ids.guild;
const INTERVAL = 1_000;
const IMPORTED = [ids.general, ids.offTopic, hids.random, ids.thread, ids.ignoredThread, hids.archived];

describe('/memory import', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('an admin confirms, the progress message edits itself at most once a second, and shows the totals', async () => {
    h = await startHarness({
      guild: historyGuildSeed(),
      setup: historyFilters,
      command: {
        historyImport: { filters: historyFilters, maxRequestsPerSecond: 25, progressIntervalMs: INTERVAL },
      },
    });
    seedServerHistory(h.emu);
    await h.memory.admin.setOptOut({ guildId: G, userId: ids.carol, optedOut: true });

    // Members without the admin role or permission are refused.
    expect((await run(h, ids.bob, 'import')).reply.content).toMatch(/Only server admins/);

    const asked = await run(h, ids.mo, 'import');
    expect(isEphemeral(asked.reply)).toBe(true);
    expect(asked.reply.content).toMatch(/Import this server's message history\?/);
    const confirm = componentByLabel(asked.reply.message, 'Import history');
    // Only the admin who asked may confirm.
    const other = await click(h, asked.reply.message, confirm, ids.owen);
    expect(other.reply.content).toMatch(/Only the member who ran the command/);

    const started = await click(h, asked.reply.message, confirm, ids.mo);
    const { handle } = started;
    await waitUntil(() => handle.edits.some((e) => String(e.body.content).includes('messages read')), 20_000);
    // One import per guild at a time: a second admin is told it is running.
    const second = await run(h, ids.owen, 'import');
    expect(second.reply.content).toMatch(/already running: [\d,]+ messages read so far/);
    expect(second.reply.message?.components ?? []).toEqual([]);

    await waitUntil(() => handle.edits.some((e) => String(e.body.content).includes('finished')), 60_000);
    const edits = handle.edits.filter((e) => e.kind === 'edit');
    const texts = edits.map((e) => String(e.body.content));
    expect(texts.filter((t) => t.includes('messages read')).length).toBeGreaterThanOrEqual(2);
    // Edits leave at least INTERVAL apart; their arrival can jitter on a busy machine.
    const at = edits.map((e) => e.at);
    for (let i = 1; i < at.length; i++)
      expect((at[i] ?? 0) - (at[i - 1] ?? 0)).toBeGreaterThanOrEqual(INTERVAL / 2);
    expect(at.length).toBeLessThanOrEqual(((at.at(-1) ?? 0) - (at[0] ?? 0)) / INTERVAL + 2);
    const keptCount = IMPORTED.reduce((count, c) => count + h.emu.channelMessages(c).filter(kept).length, 0);
    const final = texts.at(-1) ?? '';
    expect(final).toMatch(/^History import finished: 6 channels read, 5,200 messages, /);
    expect(final).toContain(`${keptCount.toLocaleString('en-US')} stored, 0 already known`);
    expect(final).toContain('2 channels left out');
    expect(edits.at(-1)?.message?.components ?? []).toEqual([]);
    expect(isEphemeral(edits.at(-1)?.message)).toBe(true);
    const stored = (await Promise.all(IMPORTED.map((c) => storedHistory(h.memory, c)))).flat().length;
    expect(stored).toBe(keptCount);

    // Done: the guild may import again (nothing new to read).
    const again = await run(h, ids.owen, 'import');
    expect(again.reply.content).toMatch(/Import this server's message history\?/);
  }, 120_000);

  it('answers that import is not set up when the bot did not configure it', async () => {
    h = await startHarness();
    expect((await run(h, ids.owen, 'import')).reply.content).toBe(
      'History import is not set up for this bot.',
    );
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, CAROL, G1, say, sqliteMemory, tempDir } from './helpers.js';

const { dir, cleanup } = tempDir();
afterAll(cleanup);
let k = 0;
const file = () => join(dir, `gov-${++k}.db`);

describe('governance through the public API on SQLite', () => {
  it('opt-out blocks observe and recall, across processes sharing the file', async () => {
    const path = file();
    const a = sqliteMemory(path);
    const b = sqliteMemory(path, {}, { clock: a.clock });
    await a.memory.facts.remember({ guildId: G1, subjectId: BOB, text: 'Bob collects rare vinyl records' });
    await b.memory.admin.setOptOut({ guildId: G1, userId: BOB, optedOut: true });
    const receipt = await a.memory.observe({
      messageId: 'm-opt',
      guildId: G1,
      channelId: 'c',
      authorId: BOB,
      content: 'i also collect cassettes now',
      createdAt: a.clock.now(),
    });
    expect(receipt.reason).toBe('opted_out');
    const recalled = await a.memory.recall({ guildId: G1, text: 'vinyl records', scope: 'guild' });
    expect(recalled.facts).toEqual([]);
    const ctx = await a.memory.promptContext({
      guildId: G1,
      askerId: ALICE,
      text: 'what does bob collect?',
      mentionedIds: [BOB],
    });
    expect(ctx.injectionBlock).not.toContain('vinyl');
    await b.memory.admin.setOptOut({ guildId: G1, userId: BOB, optedOut: false });
    expect(
      (await a.memory.recall({ guildId: G1, text: 'vinyl records', scope: 'guild' })).facts,
    ).toHaveLength(1);
    await a.memory.close();
    await b.memory.close();
  });

  it('purge: the dry run changes nothing; the real purge leaves no byte of the member in the files', async () => {
    const path = file();
    const { memory, clock } = sqliteMemory(path, { llm: 'heuristic' });
    await say(memory, clock, G1, CAROL, 'Carol', 'i love xylophonics and i live in zanzibarville');
    await say(memory, clock, G1, ALICE, 'Alice', 'i love quokkamania more than anything');
    await memory.flush();
    await memory.facts.remember({ guildId: G1, subjectId: CAROL, text: 'Carol keeps a pet axolotlzilla' });
    const before = JSON.stringify(await memory.admin.exportGuild({ guildId: G1 }));
    const dry = await memory.admin.purgeUser({ guildId: G1, userId: CAROL });
    expect(dry.dryRun).toBe(true);
    expect(dry.facts).toBeGreaterThanOrEqual(2);
    expect(
      JSON.stringify(await memory.admin.exportGuild({ guildId: G1 })).replace(/"exportedAt":"[^"]+"/, ''),
    ).toBe(before.replace(/"exportedAt":"[^"]+"/, ''));
    const real = await memory.admin.purgeUser({ guildId: G1, userId: CAROL, dryRun: false });
    expect(real).toMatchObject({ dryRun: false, messages: 1 });
    for (const read of [
      await memory.recall({ guildId: G1, text: 'xylophonics zanzibarville axolotlzilla', scope: 'guild' }),
      await memory.conversation.search({ guildId: G1, text: 'xylophonics zanzibarville' }),
      await memory.admin.exportGuild({ guildId: G1 }),
    ]) {
      expect(JSON.stringify(read).toLowerCase()).not.toMatch(/xylophonic|zanzibarvill|axolotlzilla/);
    }
    await memory.close();
    const bytes = ['', '-wal', '-shm']
      .filter((s) => existsSync(path + s))
      .map((s) =>
        readFileSync(path + s)
          .toString('latin1')
          .toLowerCase(),
      );
    for (const b of bytes) {
      for (const secret of ['xylophonic', 'zanzibarville', 'axolotlzilla'])
        expect(b.includes(secret), secret).toBe(false);
    }
    expect(bytes.some((b) => b.includes('quokkamania'))).toBe(true);
  });

  it('export → import into a fresh file gives identical recall results', async () => {
    const a = sqliteMemory(file(), { llm: 'heuristic' });
    await say(
      a.memory,
      a.clock,
      G1,
      ALICE,
      'Alice',
      'i live in omaha and i love rust, my dog is named biscuit',
    );
    await say(a.memory, a.clock, G1, BOB, 'Bob', 'i love chess and i play every weekend');
    await a.memory.flush();
    await a.memory.facts.remember({
      guildId: G1,
      subjectId: null,
      text: 'Game night is every Friday at 8pm',
    });
    const doc = JSON.parse(JSON.stringify(await a.memory.admin.exportGuild({ guildId: G1 })));
    const b = sqliteMemory(file(), {}, { clock: a.clock });
    await b.memory.admin.importGuild({ data: doc });
    for (const q of ['where does alice live?', 'who plays chess', 'game night', 'dog named biscuit']) {
      const ra = await a.memory.recall({ guildId: G1, text: q, scope: 'guild' });
      const rb = await b.memory.recall({ guildId: G1, text: q, scope: 'guild' });
      expect(rb.facts.map((f) => [f.fact.id, f.score.toFixed(6)])).toEqual(
        ra.facts.map((f) => [f.fact.id, f.score.toFixed(6)]),
      );
      expect(ra.facts.length).toBeGreaterThan(0);
    }
    const pa = await a.memory.promptContext({
      guildId: G1,
      askerId: ALICE,
      text: 'what do you know about me?',
    });
    const pb = await b.memory.promptContext({
      guildId: G1,
      askerId: ALICE,
      text: 'what do you know about me?',
    });
    // Same facts in the same order; display names may differ (messages are not part of an export).
    expect(pb.facts.map((f) => f.fact.id)).toEqual(pa.facts.map((f) => f.fact.id));
    expect(pb.facts.length).toBeGreaterThan(0);
    await a.memory.close();
    await b.memory.close();
  });
});

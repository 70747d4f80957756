import { existsSync, readFileSync } from 'node:fs';
import type { Fact } from '@permafrost/core';
import { FORGOTTEN_FACT_TEXT } from '@permafrost/core/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { learn, waitUntil } from './command-helpers.js';
import { type Harness, ids, startHarness } from './harness.js';

const G = ids.guild;

/** Files (db, -wal) of the memory's SQLite database that hold these bytes. */
function filesHolding(h: Harness, text: string): string[] {
  const needle = Buffer.from(text, 'utf8');
  return ['', '-wal'].filter(
    (suffix) => existsSync(h.dbPath + suffix) && readFileSync(h.dbPath + suffix).includes(needle),
  );
}

const stored = async (h: Harness, userId: string) =>
  (await h.memory.admin.exportUser({ guildId: G, userId })).messages.map((m) => m.messageId);
const active = async (h: Harness, userId: string) =>
  (await h.memory.facts.getAll({ guildId: G, subjectId: userId })).map((f) => f.text);
const allFacts = async (h: Harness): Promise<Fact[]> => [
  ...(await h.memory.admin.exportGuild({ guildId: G })).facts,
];

describe('setupDiscordMemory: deletions and edits forget', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('a deleted message leaves the SQLite file and WAL, and the facts only it supported retire', async () => {
    h = await startHarness();
    const SECRET = 'my locker code is qzlockerzq';
    const [doomed, kept] = await learn(h, ids.alice, [
      `I live in Oslo and ${SECRET}`,
      'I work as a carpenter',
    ]);
    const before = await h.memory.facts.getAll({ guildId: G, subjectId: ids.alice });
    const oslo = before.filter((f) => f.text.includes('Oslo')).map((f) => f.id);
    expect(oslo).not.toEqual([]);
    expect(filesHolding(h, SECRET)).not.toEqual([]);

    h.emu.deleteMessage(doomed as string);
    await waitUntil(async () => !(await stored(h, ids.alice)).includes(doomed as string));
    await h.handle.idle();

    expect(await stored(h, ids.alice)).toEqual([kept]);
    const after = await active(h, ids.alice);
    expect(after.filter((t) => t.includes('Oslo'))).toEqual([]);
    expect(after.some((t) => t.includes('carpenter'))).toBe(true);
    for (const f of await allFacts(h)) {
      expect(f.sources.map((s) => s.messageId)).not.toContain(doomed);
      if (oslo.includes(f.id)) expect([f.validUntil !== null, f.text]).toEqual([true, FORGOTTEN_FACT_TEXT]);
    }
    expect(filesHolding(h, 'I live in Oslo')).toEqual([]);
    // The bytes are gone while the bot runs: db and WAL, no restart needed.
    expect(filesHolding(h, SECRET)).toEqual([]);
  });

  it('a bulk delete forgets every message in it', async () => {
    h = await startHarness();
    const sent = await learn(h, ids.bob, [
      'I play the qzbanjozq on weekends',
      'I have a qzferretzq named Pickles',
      'I drive a blue van',
    ]);
    h.emu.deleteMessages(sent.slice(0, 2));
    await waitUntil(async () => (await stored(h, ids.bob)).length === 1);
    await h.handle.idle();
    expect(await stored(h, ids.bob)).toEqual([sent[2]]);
    for (const marker of ['qzbanjozq', 'qzferretzq']) {
      expect(JSON.stringify((await allFacts(h)).map((f) => f.sources))).not.toContain(marker);
      expect(filesHolding(h, `the ${marker}`)).toEqual([]);
    }
  });

  it('an edit retires the old claim and learns the new one', async () => {
    h = await startHarness();
    const [id] = await learn(h, ids.carol, ['I live in Oslo', 'I work as a carpenter']);
    const oslo = (await h.memory.facts.getAll({ guildId: G, subjectId: ids.carol }))
      .filter((f) => f.text.includes('Oslo'))
      .map((f) => f.id);
    expect(oslo).not.toEqual([]);

    h.emu.editMessage(id as string, { content: 'I live in Lima' });
    await waitUntil(async () =>
      (await h.memory.admin.exportUser({ guildId: G, userId: ids.carol })).messages.some(
        (m) => m.messageId === id && m.content === 'I live in Lima',
      ),
    );
    await h.handle.idle();
    await h.memory.flush();
    const after = await active(h, ids.carol);
    expect(after.filter((t) => t.includes('Oslo'))).toEqual([]);
    expect(after.some((t) => t.includes('Lima'))).toBe(true);
    const retired = (await allFacts(h)).filter((f) => oslo.includes(f.id));
    expect(retired).toHaveLength(oslo.length);
    for (const f of retired) expect([f.validUntil !== null, f.sources]).toEqual([true, []]);
    expect(filesHolding(h, 'I live in Oslo')).toEqual([]);
  });
});

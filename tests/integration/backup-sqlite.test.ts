import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMemory, ErrorCode, MemoryError } from '@permafrost/core';
import { restoreSqliteBackup, verifySqliteCopy } from '@permafrost/store-sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, CAROL, G1, say, sqliteMemory, tempDir } from './helpers.js';

const { dir, cleanup } = tempDir('permafrost-backup-');
afterAll(cleanup);

const QUESTIONS = ['where does alice live', 'what does bob play', 'who keeps bees', 'carol job'];

describe('admin.backup and restore on SQLite (issue #23 §7)', () => {
  it('backs up while the bot writes, restores into a new file, and recall is identical', async () => {
    const live = join(dir, 'live.db');
    const { memory, clock } = sqliteMemory(live, { llm: 'heuristic' });
    await say(memory, clock, G1, ALICE, 'Alice', 'I live in Lisbon and I keep bees on my roof');
    await say(memory, clock, G1, BOB, 'Bob', 'I play the cello in a quartet');
    await say(memory, clock, G1, CAROL, 'Carol', 'I work as a paramedic at night');
    await memory.flush();
    await memory.facts.remember({ guildId: G1, subjectId: BOB, text: 'Bob prefers tea over coffee' });

    // Writers keep going while the copy runs: the copy is a consistent snapshot either way.
    const backupPath = join(dir, 'copy.db');
    const writing = (async () => {
      for (let i = 0; i < 20; i++)
        await say(memory, clock, G1, CAROL, 'Carol', `filler chatter number ${i} about the weather`);
    })();
    const manifest = await memory.admin.backup({ path: backupPath });
    await writing;
    expect(manifest).toMatchObject({ path: backupPath, schemaVersion: expect.any(Number) });
    expect(manifest.sha256).toMatch(/^[0-9a-f]{64}$/);
    // No extraction ran during the copy, so it holds exactly the live facts.
    expect(manifest.counts['facts']).toBe((await memory.admin.exportGuild({ guildId: G1 })).facts.length);
    expect(manifest.counts['facts']).toBeGreaterThanOrEqual(2);
    expect(manifest.counts['messages']).toBeGreaterThanOrEqual(3);
    // One self-contained file, and it verifies the same when checked again.
    expect(existsSync(`${backupPath}-wal`)).toBe(false);
    expect(verifySqliteCopy(backupPath).sha256).toBe(manifest.sha256);

    // The same path again is refused; nothing is overwritten.
    const again = await memory.admin.backup({ path: backupPath }).catch((e: unknown) => e);
    expect(MemoryError.is(again, ErrorCode.SCHEMA_INVALID)).toBe(true);

    // Recall on the live store, restricted to what the copy holds (no writes after the backup
    // produce facts: the filler is chatter), then on the restored file.
    const recallAll = async (m: typeof memory) =>
      Promise.all(
        QUESTIONS.map(async (text) =>
          (await m.recall({ guildId: G1, text, scope: 'guild' })).facts.map((f) => [f.fact.id, f.fact.text]),
        ),
      );
    const before = await recallAll(memory);
    expect(before.flat().length).toBeGreaterThan(0);
    await memory.close();

    const restoredPath = join(dir, 'restored.db');
    const restored = restoreSqliteBackup({
      from: backupPath,
      to: restoredPath,
      expectedSha256: manifest.sha256,
    });
    expect(restored.counts).toEqual(manifest.counts);
    const reopened = createMemory(
      { storage: `sqlite://${restoredPath}`, llm: null, workers: { enabled: false } },
      { clock },
    );
    expect(await recallAll(reopened)).toEqual(before);
    const facts = await reopened.facts.getAll({ guildId: G1, subjectId: BOB });
    expect(facts.map((f) => f.text)).toContain('Bob prefers tea over coffee');
    await reopened.close();
  });

  it('restore refuses to overwrite a database, a live file as the source, and a wrong checksum', async () => {
    const live = join(dir, 'live2.db');
    const { memory } = sqliteMemory(live);
    await memory.facts.remember({
      guildId: G1,
      subjectId: ALICE,
      text: 'Alice restores vintage synthesizers',
    });
    const copy = join(dir, 'copy2.db');
    const manifest = await memory.admin.backup({ path: copy });
    const codeOf = (fn: () => unknown) => {
      try {
        fn();
        return 'ok';
      } catch (error) {
        return MemoryError.is(error) ? error.code : 'other';
      }
    };
    // The live database (open, with its WAL) is never a restore target, nor a source.
    expect(codeOf(() => restoreSqliteBackup({ from: copy, to: live }))).toBe(ErrorCode.SCHEMA_INVALID);
    expect(codeOf(() => restoreSqliteBackup({ from: live, to: join(dir, 'x.db') }))).toBe(
      ErrorCode.SCHEMA_INVALID,
    );
    expect(
      codeOf(() =>
        restoreSqliteBackup({ from: copy, to: join(dir, 'y.db'), expectedSha256: '0'.repeat(64) }),
      ),
    ).toBe(ErrorCode.STORE_CORRUPT);
    expect(existsSync(join(dir, 'y.db'))).toBe(false);
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'not a database at all, just text '.repeat(200));
    expect(codeOf(() => restoreSqliteBackup({ from: junk, to: join(dir, 'z.db') }))).toBe(
      ErrorCode.STORE_CORRUPT,
    );
    expect(
      codeOf(() =>
        restoreSqliteBackup({ from: copy, to: join(dir, 'ok.db'), expectedSha256: manifest.sha256 }),
      ),
    ).toBe('ok');
    await memory.close();
  });

  it('a store without backups answers BACKUP_UNSUPPORTED', async () => {
    const memory = createMemory({ storage: 'memory', llm: null, workers: { enabled: false } });
    const error = await memory.admin.backup({ path: join(dir, 'never.db') }).catch((e: unknown) => e);
    expect(MemoryError.is(error, ErrorCode.BACKUP_UNSUPPORTED)).toBe(true);
    expect(existsSync(join(dir, 'never.db'))).toBe(false);
    await memory.close();
  });
});

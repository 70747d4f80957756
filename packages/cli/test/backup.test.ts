import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory } from '@permafrost/core';
import '@permafrost/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProjects } from '../../../scripts/tools.mjs';
import { runCli } from './run-cli.js';

const GUILD = '800000000000000001';
const ALICE = '810000000000000001';
let dir: string;
let db: string;

const cli = (...args: string[]) => runCli(dir, args);

beforeAll(async () => {
  buildProjects(['packages/cli']);
  dir = mkdtempSync(join(tmpdir(), 'permafrost-cli-backup-'));
  db = join(dir, 'memory.db');
  const memory = createMemory({ storage: `sqlite://${db}`, workers: { enabled: false }, llm: null });
  await memory.facts.remember({ guildId: GUILD, subjectId: ALICE, text: 'Alice keeps bees in her garden' });
  await memory.close();
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('permafrost backup / restore (real process, real SQLite files)', () => {
  it('backs up to a new file with a manifest, restores it into a new file, and refuses to overwrite', () => {
    const backup = cli('backup', '--db', db, '--out', 'copy.db', '--json');
    expect(backup.code).toBe(0);
    const manifest = JSON.parse(backup.out) as { sha256: string; counts: Record<string, number> };
    expect(manifest.counts['facts']).toBe(1);
    expect(existsSync(join(dir, 'copy.db'))).toBe(true);

    const again = cli('backup', '--db', db, '--out', 'copy.db');
    expect(again.code).toBe(2);
    expect(again.err).toContain('already exists');

    const restored = cli('restore', '--from', 'copy.db', '--to', 'restored.db', '--sha256', manifest.sha256);
    expect(restored.code).toBe(0);
    expect(restored.out).toContain(manifest.sha256);
    const inspect = cli('inspect', '--db', join(dir, 'restored.db'), '--guild', GUILD);
    expect(inspect.out).toContain('Alice keeps bees in her garden');

    // Never over an existing (here: the live) database; a wrong checksum is a storage error.
    const over = cli('restore', '--from', 'copy.db', '--to', 'memory.db');
    expect(over.code).toBe(2);
    expect(over.err).toContain('already exists');
    const wrong = cli('restore', '--from', 'copy.db', '--to', 'other.db', '--sha256', '0'.repeat(64));
    expect(wrong.code).toBe(4);
    expect(existsSync(join(dir, 'other.db'))).toBe(false);
    expect(cli('restore', '--to', 'x.db').code).toBe(2);
  });

  it('a store that cannot back itself up gives a coded error', () => {
    const r = cli('backup', '--db', 'memory', '--out', 'mem.db');
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('BACKUP_UNSUPPORTED');
  });
});

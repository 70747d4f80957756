import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory } from '@permafrost/core';
import '@permafrost/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProjects } from '../../../scripts/tools.mjs';
import { CLI_BIN, runCli } from './run-cli.js';

const GUILD = '800000000000000001';
const ALICE = '810000000000000001';
const BOB = '810000000000000002';
const CAROL = '810000000000000003';
let dir: string;
let db: string;

const cli = (...args: string[]) => runCli(dir, args);

beforeAll(async () => {
  buildProjects(['packages/cli']);
  dir = mkdtempSync(join(tmpdir(), 'permafrost-cli-'));
  db = join(dir, 'memory.db');
  const memory = createMemory({ storage: `sqlite://${db}`, workers: { enabled: false }, llm: null });
  await memory.facts.remember({
    guildId: GUILD,
    subjectId: ALICE,
    text: 'Alice keeps bees in her garden',
    subjectUsername: 'alice',
  });
  await memory.facts.remember({ guildId: GUILD, subjectId: BOB, text: 'Bob restores vintage motorcycles' });
  await memory.close();
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('permafrost CLI (real process, real SQLite file)', () => {
  it('prints help and fails on unknown commands with a usage exit code', () => {
    expect(cli('help')).toMatchObject({ code: 0 });
    const bad = cli('frobnicate');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('unknown command');
  });

  it('inspects facts and aliases as a table and as JSON', () => {
    const table = cli('inspect', '--db', db, '--guild', GUILD);
    expect(table.code).toBe(0);
    expect(table.out).toContain('Alice keeps bees in her garden');
    const json = JSON.parse(cli('inspect', '--db', db, '--guild', GUILD, '--user', BOB, '--json').out);
    expect(json.facts.map((f: { text: string }) => f.text)).toEqual(['Bob restores vintage motorcycles']);
  });

  it('reports a missing required flag with code 2 and a hint, without a stack', () => {
    const r = cli('stats', '--db', db);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--guild is required');
    expect(r.err).not.toContain('    at ');
  });

  it('exports, then imports into a fresh file with identical content', () => {
    expect(cli('export', '--db', db, '--guild', GUILD, '--out', 'export.json').code).toBe(0);
    const fresh = join(dir, 'fresh.db');
    const imported = cli('import', '--db', fresh, '--file', 'export.json', '--json');
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.out)).toMatchObject({ facts: 2 });
    const a = JSON.parse(cli('inspect', '--db', db, '--guild', GUILD, '--json').out);
    const b = JSON.parse(cli('inspect', '--db', fresh, '--guild', GUILD, '--json').out);
    expect(b).toEqual(a);
  });

  it('purges only with --yes; the dry run changes nothing', () => {
    const dry = cli('purge', '--db', db, '--guild', GUILD, '--user', ALICE, '--json');
    expect(JSON.parse(dry.out)).toMatchObject({ dryRun: true, facts: 1 });
    expect(cli('inspect', '--db', db, '--guild', GUILD).out).toContain('bees');
    const real = cli('purge', '--db', db, '--guild', GUILD, '--user', ALICE, '--yes', '--json');
    expect(JSON.parse(real.out)).toMatchObject({ dryRun: false, facts: 1, aliases: 1 });
    expect(cli('inspect', '--db', db, '--guild', GUILD).out).not.toContain('bees');
  });

  it('sets and reads opt-out', () => {
    expect(cli('optout', '--db', db, '--guild', GUILD, '--user', BOB, 'on').out).toContain('on');
    expect(cli('optout', '--db', db, '--guild', GUILD, '--user', BOB).out).toContain('on');
    expect(cli('optout', '--db', db, '--guild', GUILD, '--user', BOB, 'maybe').code).toBe(2);
  });

  it('prints an error code and hint for a bad config file', () => {
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ retrieval: { topK: -1 } }));
    const r = cli('stats', '--db', db, '--guild', GUILD, '--config', 'bad.json');
    expect(r.code).toBe(3);
    expect(r.err).toContain('CONFIG_INVALID');
    expect(r.err).toContain('retrieval.topK');
  });

  it('runs the demo: full pipeline on SQLite with the offline extractor, printing a real memory block', () => {
    const r = cli('demo');
    expect(r.code).toBe(0);
    const block = r.out.slice(r.out.indexOf('[LONG-TERM MEMORY]'));
    expect(block).toContain('WHAT I KNOW ABOUT THE CURRENT ASKER (Alice)');
    expect(block).toContain('Alice moved to Seattle');
    expect(block).not.toContain('Alice lives in Omaha');
    expect(block).toContain('REFERENCED USER: Bob');
    expect(block).toMatch(/\[mem:\d+\] Bob loves rust/);
    expect(r.out).toContain('Alice lives in Omaha                                          long  retired');
  });

  it('searches facts with the recall ranking and draws the relation graph', async () => {
    const memory = createMemory({ storage: `sqlite://${db}`, workers: { enabled: false }, llm: null });
    await memory.facts.remember({
      guildId: GUILD,
      subjectId: CAROL,
      text: 'Carol likes espresso',
      relations: [{ verb: 'likes', toEntity: 'espresso' }],
    });
    await memory.close();
    const hits = JSON.parse(
      cli('search', '--db', db, '--guild', GUILD, '--query', 'who drinks espresso?', '--json').out,
    );
    expect(hits.facts[0].fact.text).toBe('Carol likes espresso');
    const hidden = JSON.parse(
      cli('search', '--db', db, '--guild', GUILD, '--query', 'motorcycles', '--json').out,
    );
    expect(hidden.facts.map((f: { fact: { subjectId: string } }) => f.fact.subjectId)).not.toContain(BOB);
    const mermaid = cli('graph', '--db', db, '--guild', GUILD);
    expect(mermaid.out).toContain('graph LR');
    expect(mermaid.out).toMatch(/-- likes -->/);
    expect(cli('graph', '--db', db, '--guild', GUILD, '--format', 'dot').out).toContain('[label="likes"]');
    expect(cli('graph', '--db', db, '--guild', GUILD, '--format', 'png').code).toBe(2);
  });

  it('doctor reports a missing sqlite-vec and an embedder dimension mismatch clearly; reindex fixes the mismatch', async () => {
    const healthy = cli('doctor', '--db', db, '--json');
    expect(healthy.code).toBe(0);
    const broken = spawnSync(process.execPath, [CLI_BIN, 'doctor', '--db', db, '--json'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, PERMAFROST_SQLITE_VEC_PATH: join(dir, 'missing-vec0.so') },
    });
    expect(broken.status).toBe(1);
    const rows = JSON.parse(broken.stdout) as { check: string; status: string; detail: string }[];
    expect(rows.find((r) => r.check.startsWith('vector extension'))).toMatchObject({
      status: 'FAIL',
      detail: 'BACKEND_NOT_INSTALLED',
    });
    const mismatched = join(dir, 'dims.db');
    const small = createMemory({
      storage: `sqlite://${mismatched}`,
      workers: { enabled: false },
      llm: null,
      embeddings: { provider: 'hashing', dimensions: 64 },
    });
    await small.facts.remember({ guildId: GUILD, subjectId: BOB, text: 'Bob restores vintage motorcycles' });
    await small.close();
    const doctor = JSON.parse(cli('doctor', '--db', mismatched, '--json').out) as {
      check: string;
      status: string;
      detail: string;
    }[];
    expect(doctor.find((r) => r.check === 'storage')).toMatchObject({
      status: 'FAIL',
      detail: expect.stringMatching(/^DIMENSION_MISMATCH: .*run `permafrost reindex`/),
    });
    expect(cli('stats', '--db', mismatched, '--guild', GUILD).err).toContain('permafrost reindex');
    expect(cli('reindex', '--db', mismatched).out).toContain('re-embedded 1 fact(s)');
    expect(cli('doctor', '--db', mismatched).code).toBe(0);
  });

  it('runs one cron tick in worker mode', () => {
    const r = cli('run-pending', '--db', db, '--once', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ batches: 0, interrupted: false });
    expect(readFileSync(db).length).toBeGreaterThan(0);
  });
});

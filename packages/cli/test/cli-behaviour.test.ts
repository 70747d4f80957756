import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory } from '@permafrost/core';
import { type ScriptedOpenAiServer, startScriptedOpenAiServer } from '@permafrost/core/testing';
import '@permafrost/store-sqlite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCli, runCli } from './spawn-cli.js';

const GUILD = '830000000000000001';
const ALICE = '830000000000000011';
const VERSION = (
  JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string }
).version;

let seededDir: string;
let seeded: string;
let empty: string;
let server: ScriptedOpenAiServer;

beforeAll(async () => {
  buildCli();
  seededDir = mkdtempSync(join(tmpdir(), 'permafrost-cli-seeded-'));
  seeded = join(seededDir, 'memory.db');
  const memory = createMemory({ storage: `sqlite://${seeded}`, workers: { enabled: false }, llm: null });
  await memory.facts.remember({ guildId: GUILD, subjectId: ALICE, text: 'Alice keeps bees in her garden' });
  await memory.close();
  server = await startScriptedOpenAiServer();
}, 120_000);

afterAll(async () => {
  await server.close();
  rmSync(seededDir, { recursive: true, force: true });
});

beforeEach(() => {
  empty = mkdtempSync(join(tmpdir(), 'permafrost-cli-empty-'));
  server.reset();
  return () => rmSync(empty, { recursive: true, force: true });
});

const cli = (args: readonly string[], env?: Record<string, string>) =>
  runCli(args, { cwd: empty, ...(env ? { env } : {}) });
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('permafrost CLI: flags and usage', () => {
  it('--version prints the package version', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await cli([flag]);
      expect(r).toMatchObject({ code: 0, out: `${VERSION}\n` });
    }
  });

  it('unknown flags and stray positionals are usage errors showing the command usage', async () => {
    const flag = await cli(['inspect', '--db', seeded, '--guild', GUILD, '--frobnicate']);
    expect(flag.code).toBe(2);
    expect(flag.err).toContain("Unknown option '--frobnicate'");
    expect(flag.err).toContain('usage: permafrost inspect --db <url|path> --guild <id>');
    const stray = await cli(['stats', '--db', seeded, '--guild', GUILD, 'oops']);
    expect(stray.code).toBe(2);
    expect(stray.err).toContain('error: unexpected argument "oops"');
    expect(stray.err).toContain('usage: permafrost stats');
    const leading = await cli(['--frobnicate']);
    expect(leading.code).toBe(2);
    expect(leading.err).toContain('unknown option "--frobnicate"');
    expect(readdirSync(empty)).toEqual([]);
  });

  it('numeric flags are validated', async () => {
    const cases: [string[], string][] = [
      [
        ['inspect', '--db', seeded, '--guild', GUILD, '--limit', 'abc'],
        '--limit must be a whole number from 1 to',
      ],
      [
        ['search', '--db', seeded, '--guild', GUILD, '--query', 'bees', '--limit', '0'],
        '--limit must be a whole number from 1 to 200 (got "0")',
      ],
      [['graph', '--db', seeded, '--guild', GUILD, '--limit', '2.5'], '--limit must be a whole number'],
      [['run-pending', '--db', seeded, '--interval=-5'], '--interval must be a whole number from 10 to'],
      [['run-pending', '--db', seeded, '--drain-timeout', '1e3'], '--drain-timeout must be a whole number'],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toContain(message);
    }
    const ok = await cli(['inspect', '--db', seeded, '--guild', GUILD, '--limit', '1', '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out).facts).toHaveLength(1);
  });

  it('help lists exit codes and points to no file that is not shipped', async () => {
    const r = await cli(['help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Exit codes: 0 ok, 1 failure, 2 usage');
    expect(r.out).not.toMatch(/docs\/|\.md\b/);
  });

  it('graph dot prints graphviz dot; the positional and --format must agree', async () => {
    const r = await cli(['graph', 'dot', '--db', seeded, '--guild', GUILD]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^digraph permafrost \{\n {2}rankdir=LR;\n[\s\S]*\}\n$/);
    const mermaid = await cli(['graph', '--db', seeded, '--guild', GUILD]);
    expect(mermaid.out).toMatch(/^graph LR\n/);
    const clash = await cli(['graph', 'dot', '--format', 'mermaid', '--db', seeded, '--guild', GUILD]);
    expect(clash.code).toBe(2);
    const bad = await cli(['graph', 'svg', '--db', seeded, '--guild', GUILD]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('the format must be mermaid or dot');
  });
});

describe('permafrost CLI: read-only commands', () => {
  const commands: [string, string[], number][] = [
    ['inspect', ['--guild', GUILD], 5],
    ['search', ['--guild', GUILD, '--query', 'bees'], 5],
    ['stats', ['--guild', GUILD], 5],
    ['export', ['--guild', GUILD], 5],
    ['graph', ['dot', '--guild', GUILD], 5],
    ['doctor', ['--skip-llm', '--json'], 1],
  ];

  it.each(commands)(
    '%s on a missing file fails with a message and creates nothing',
    async (name, args, code) => {
      const r = await cli([name, '--db', './typo.db', ...args]);
      expect(r.code).toBe(code);
      expect(r.err + r.out).toContain(`no SQLite database at ${join(empty, 'typo.db')}`);
      expect(readdirSync(empty)).toEqual([]);
    },
  );

  it('without --db they look for ./permafrost.db and do not create it', async () => {
    const r = await cli(['stats', '--guild', GUILD]);
    expect(r.code).toBe(5);
    expect(r.err).toContain(`error NOT_FOUND: no SQLite database at ${join(empty, 'permafrost.db')}`);
    const doctor = await cli(['doctor', '--skip-llm', '--json']);
    expect(doctor.code).toBe(1);
    expect(readdirSync(empty)).toEqual([]);
  });

  it('they leave an existing file untouched', async () => {
    const before = sha(seeded);
    for (const [name, args] of commands) {
      const r = await cli([name, '--db', seeded, ...args.filter((a) => a !== 'dot')]);
      expect(r.code, `${name}: ${r.err}`).toBe(0);
    }
    expect(sha(seeded)).toBe(before);
  });

  it('a writing command still creates its file (and the folder)', async () => {
    const r = await cli(['optout', '--db', 'sub/new.db', '--guild', GUILD, '--user', ALICE, 'on']);
    expect(r).toMatchObject({ code: 0, out: 'opt-out is on\n' });
    expect(readdirSync(join(empty, 'sub'))).toContain('new.db');
  });
});

describe('permafrost CLI: colour', () => {
  const failing = ['stats', '--db', './typo.db', '--guild', GUILD];
  it('is off when not on a terminal, on with FORCE_COLOR, and NO_COLOR always wins', async () => {
    expect((await cli(failing)).err).not.toContain('\u001b[');
    expect((await cli(failing, { FORCE_COLOR: '1' })).err).toContain('\u001b[31merror NOT_FOUND:\u001b[0m');
    expect((await cli(failing, { FORCE_COLOR: '1', NO_COLOR: '1' })).err).not.toContain('\u001b[');
  });

  it('stored text cannot inject terminal escapes into tables', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'permafrost-cli-escape-'));
    const db = join(dir, 'm.db');
    const memory = createMemory({ storage: `sqlite://${db}`, workers: { enabled: false }, llm: null });
    await memory.facts.remember({
      guildId: GUILD,
      subjectId: ALICE,
      text: 'Alice likes \u001b]0;pwned\u0007 tea \u202e',
    });
    await memory.close();
    const r = await cli(['inspect', '--db', db, '--guild', GUILD], { FORCE_COLOR: '1' });
    rmSync(dir, { recursive: true, force: true });
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('\u001b]');
    expect(r.out).not.toContain('\u202e');
    expect(r.out).toContain('Alice likes \ufffd]0;pwned\ufffd tea \ufffd');
  });
});

describe('permafrost CLI: the model endpoint', () => {
  const llm = () => `openai://k@127.0.0.1:${server.port}/v1?model=refuser`;

  it('doctor pings the LLM by default; a refusing endpoint fails it and marks llm degraded', async () => {
    server.script({ status: 401 }, { status: 401 });
    const r = await cli(['doctor', '--db', seeded, '--llm', llm(), '--json']);
    expect(r.code).toBe(1);
    expect(server.chatRequests).toHaveLength(1);
    const rows = JSON.parse(r.out) as { check: string; status: string; detail: string }[];
    expect(rows.find((x) => x.check === 'llm reachable')).toMatchObject({
      status: 'FAIL',
      detail: expect.stringMatching(/^refuser: LLM_UNAVAILABLE: .*HTTP 401; check the API key/),
    });
    expect(rows.find((x) => x.check === 'llm')).toEqual({
      check: 'llm',
      status: 'warn',
      detail: 'refuser: the last 1 call(s) failed (LLM_UNAVAILABLE)',
    });
    const skipped = await cli(['doctor', '--db', seeded, '--llm', llm(), '--skip-llm', '--json']);
    expect(skipped.code).toBe(0);
    expect(server.chatRequests).toHaveLength(1);
  });

  it('SIGTERM drains within --drain-timeout even when the endpoint never answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'permafrost-cli-sigterm-'));
    const db = join(dir, 'm.db');
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({ batching: { batchSizeMessages: 1 }, extraction: { noiseGate: false } }),
    );
    const memory = createMemory({ storage: `sqlite://${db}`, workers: { enabled: false }, llm: null });
    await memory.observe({
      messageId: '830000000000000101',
      guildId: GUILD,
      channelId: '830000000000000002',
      authorId: ALICE,
      content: 'I keep three beehives on the roof of my building',
      createdAt: new Date(),
    });
    await memory.close({ drain: false });
    server.script({ delayMs: 600_000 });
    let signalledAt = 0;
    const run = runCli(
      ['run-pending', '--db', db, '--config', config, '--llm', llm(), '--drain-timeout', '1500', '--json'],
      {
        cwd: dir,
        onSpawn: (child) => {
          const poll = setInterval(() => {
            if (server.chatRequests.length > 0) {
              clearInterval(poll);
              signalledAt = Date.now();
              child.kill('SIGTERM');
            }
          }, 20);
        },
      },
    );
    const r = await run;
    const drained = Date.now() - signalledAt;
    rmSync(dir, { recursive: true, force: true });
    expect(signalledAt).toBeGreaterThan(0);
    expect(r.code).toBe(130);
    expect(JSON.parse(r.out)).toEqual({ batches: 0, interrupted: true });
    expect(r.err).toContain('SIGTERM: finishing the current batches (at most 1500 ms)');
    expect(drained).toBeLessThan(1500 + 2500);
  }, 30_000);
});

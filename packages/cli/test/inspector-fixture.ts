import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory, type GuildExport, type Memory } from '@permafrost/core';
import '@permafrost/store-sqlite';
import { runCli } from './run-cli.js';

/** Ids of the `permafrost demo` guild. */
export const DEMO_GUILD = '700000000000000001';
export const ALICE = '710000000000000001';
export const BOB = '710000000000000002';
export const CAROL = '710000000000000003';
/** A member whose names and messages are hostile, observed into the demo guild. */
export const MALLORY = '710000000000000066';
/** A copy of the demo guild imported with hostile stored fields (a `javascript:` source, markup). */
export const HOSTILE_GUILD = '700000000000000066';

export const HOSTILE_NAME = '<img src=x onerror="window.__pwned=1">';
export const HOSTILE_USERNAME = '"onmouseover="window.__pwned=2';
export const HOSTILE_MESSAGE = '<script>window.__pwned=3</script> i love hiking \u202Eevil\u202C too';
export const HOSTILE_FACT =
  '</td><script>window.__pwned=6</script><a href="javascript:window.__pwned=7">x</a>';
export const HOSTILE_ENTITY = '<svg onload="window.__pwned=5">';
export const JS_URL = 'javascript:window.__pwned=4';

export function openSqlite(db: string): Memory {
  // The fixture reads as the operator does (guild-wide), like the inspector itself.
  return createMemory({
    storage: `sqlite://${db}`,
    llm: 'heuristic',
    workers: { enabled: false },
    access: { requireAudience: false },
  });
}

/**
 * The demo database (made by the CLI's own `demo` command) plus hostile input through the public
 * API: Mallory's messages (markup, attribute breakers and RTL overrides in her names and text),
 * and an imported guild whose stored fact text, entity name and source URL are hostile.
 */
/** A channel of the demo guild other than the one the demo talks in. */
export const STAFF_CHANNEL = '700000000000000099';

export async function seedInspectorDatabase(): Promise<{ dir: string; db: string; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'permafrost-inspector-'));
  const db = join(dir, 'demo.db');
  const demo = runCli(dir, ['demo', '--db', db]);
  if (demo.code !== 0) throw new Error(`permafrost demo failed: ${demo.err}`);
  const memory = openSqlite(db);
  try {
    let n = 0;
    for (const content of [HOSTILE_MESSAGE, 'i work as a pentester and i love <b>bold</b> tags']) {
      n++;
      await memory.observe({
        messageId: String(730000000000000000n + BigInt(n)),
        guildId: DEMO_GUILD,
        channelId: '700000000000000002',
        authorId: MALLORY,
        authorUsername: HOSTILE_USERNAME,
        authorDisplayName: HOSTILE_NAME,
        content,
        createdAt: new Date(Date.now() - 60_000 + n * 1_000),
      });
    }
    await memory.flush();
    // Learned in another channel: a search "as seen from" the demo channel must not show it.
    await memory.facts.remember({
      guildId: DEMO_GUILD,
      subjectId: ALICE,
      text: 'Alice keeps the moderation rota in the staff room',
      channel: { channelId: STAFF_CHANNEL, parentId: null },
    });
    const doc = await memory.admin.exportGuild({ guildId: DEMO_GUILD });
    const hostile: GuildExport = {
      ...doc,
      guildId: HOSTILE_GUILD,
      facts: doc.facts.map((f, i) =>
        i === 0
          ? { ...f, text: HOSTILE_FACT, sources: f.sources.map((s) => ({ ...s, url: JS_URL })) }
          : { ...f },
      ),
      entities: doc.entities.map((e, i) => (i === 0 ? { ...e, name: HOSTILE_ENTITY } : e)),
    };
    await memory.admin.importGuild({ data: JSON.parse(JSON.stringify(hostile)) });
  } finally {
    await memory.close();
  }
  return { dir, db, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `permafrost inspect --serve` as a real process; resolves with the URL it prints. */
export function serveInspector(
  cli: string,
  args: readonly string[],
): Promise<{ url: string; token: string | null; child: ChildProcess }> {
  const child = spawn(process.execPath, [cli, 'inspect', '--serve', ...args], {
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const url = /inspector: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1];
      const admin = /admin actions enabled/.test(out);
      const token = /admin token \(shown once\): (\S+)/.exec(out)?.[1] ?? null;
      if (url && (!admin || token || args.includes('--admin-token'))) resolve({ url, token, child });
    });
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    child.on('exit', (code) => reject(new Error(`inspect --serve exited ${code}: ${err}`)));
  });
}

/** A guild the "bot" of `startBotMetrics` extracts into (so the demo guild stays as the demo made it). */
export const BOT_GUILD = '700000000000000077';

/**
 * A bot process stand-in: a Memory on the same file that observes and extracts a few messages
 * (heuristic model, metered like any model), serving `memory.ops.metrics().prometheus()` on
 * 127.0.0.1 as a bot would for Prometheus.
 */
export async function startBotMetrics(db: string): Promise<{ url: string; close: () => Promise<void> }> {
  const memory = openSqlite(db);
  const lines = ['i live in lisbon and i work as a baker', 'i love chess and i play the violin'];
  for (const [i, content] of lines.entries())
    await memory.observe({
      messageId: String(740000000000000000n + BigInt(i)),
      guildId: BOT_GUILD,
      channelId: '700000000000000078',
      authorId: '710000000000000077',
      authorUsername: 'dora',
      authorDisplayName: 'Dora',
      content,
      createdAt: new Date(Date.now() - 10_000 + i * 1_000),
    });
  await memory.flush();
  const server = createServer((_req, res) => {
    memory.ops.metrics().then(
      (m) => {
        res.writeHead(200, { 'content-type': m.prometheusContentType });
        res.end(m.prometheus());
      },
      () => {
        res.writeHead(500);
        res.end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/metrics`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await memory.close();
    },
  };
}

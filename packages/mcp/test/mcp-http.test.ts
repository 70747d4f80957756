import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMemory } from '@permafrost/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProjects } from '../../../scripts/tools.mjs';
import { createMemoryMcp, memberExportUri, serveMcpHttp } from '../src/index.js';
import { call, callFails, type FactLike, newClient } from './client.js';
import { ALICE, AUDIENCE, CLI_BIN, G1, G2, seedDatabase } from './fixture.js';

const TOKEN = 'test-token-0123456789abcdef';
let seeded: Awaited<ReturnType<typeof seedDatabase>>;
const children: ChildProcess[] = [];

/** Starts `permafrost mcp --http` and resolves with the URL it prints on stderr. */
function startServer(args: readonly string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI_BIN, 'mcp', '--db', seeded.db, ...args], {
    env: { ...process.env, NODE_OPTIONS: '', PERMAFROST_MCP_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve({ url: m[1] as string, child });
    });
    child.on('exit', (code) => reject(new Error(`the server exited ${code}: ${err}`)));
  });
}

/** Runs the CLI to completion (for refusals). */
function runToExit(args: readonly string[]): Promise<{ code: number | null; err: string; out: string }> {
  const child = spawn(process.execPath, [CLI_BIN, 'mcp', '--db', seeded.db, ...args], {
    env: { ...process.env, NODE_OPTIONS: '', PERMAFROST_MCP_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    err += d;
  });
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, err, out })));
}

function post(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
  });
}

beforeAll(async () => {
  buildProjects(['packages/cli']);
  seeded = await seedDatabase();
}, 120_000);

afterAll(() => {
  for (const c of children) c.kill('SIGTERM');
  seeded?.cleanup();
});

describe('permafrost mcp --http (streamable HTTP, the SDK client)', () => {
  it('serves the tools to a client with the bearer token and refuses a missing or wrong one', async () => {
    const { url } = await startServer(['--guild', G1, '--http', '--port', '0', '--token', TOKEN]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

    const client = newClient();
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(7);
    const about = await call<{ facts: FactLike[] }>(client, 'facts_about', {
      guildId: G1,
      audience: AUDIENCE,
      userId: ALICE,
    });
    expect(about.facts.length).toBeGreaterThan(0);
    const scoped = await callFails(client, 'recall', { guildId: G2, audience: AUDIENCE, text: 'stamps' });
    expect(scoped.data.code).toBe('GUILD_OUT_OF_SCOPE');
    const invalid = await callFails(client, 'recall', { guildId: G1, audience: {}, text: 'x' });
    expect(invalid.data.code).toBe('SCHEMA_INVALID');
    // Not started with --admin: member exports are refused.
    await expect(client.readResource({ uri: memberExportUri(G1, ALICE) })).rejects.toThrow(/ADMIN_REQUIRED/);
    await client.close();

    const anonymous = newClient();
    await expect(anonymous.connect(new StreamableHTTPClientTransport(new URL(url)))).rejects.toThrow();
    const wrong = newClient();
    await expect(
      wrong.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}x` } },
        }),
      ),
    ).rejects.toThrow();
    expect(await post(url, {})).toBe(401);
    expect(await post(url, { authorization: 'Bearer nope' })).toBe(401);
    expect(await post(url, { authorization: `Bearer ${TOKEN}`, host: 'attacker.example' })).toBe(403);
  });

  it('refuses to start on a non-loopback address without a token, and admin over HTTP without one', async () => {
    const open = await runToExit(['--guild', G1, '--http', '--host', '0.0.0.0']);
    expect(open.code).toBe(3);
    expect(open.err).toMatch(/CONFIG_INVALID.*non-loopback.*bearer token/);
    expect(open.out).toBe('');
    const adminNoToken = await runToExit(['--guild', G1, '--http', '--admin']);
    expect(adminNoToken.code).toBe(3);
    expect(adminNoToken.err).toMatch(/admin resources over HTTP require a bearer token/);
    const noGuild = await runToExit(['--http']);
    expect(noGuild.code).toBe(2);
  });

  it('serves in-process too (serveMcpHttp), with a token enforced on loopback when one is given', async () => {
    const memory = createMemory({ storage: `sqlite://${seeded.db}`, llm: null, workers: { enabled: false } });
    const mcp = createMemoryMcp({ memory, guilds: [G1] });
    const serving = await serveMcpHttp(mcp, { token: TOKEN });
    try {
      expect(await post(serving.url, {})).toBe(401);
      const client = newClient();
      await client.connect(
        new StreamableHTTPClientTransport(new URL(serving.url), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        }),
      );
      const r = await call<{ facts: unknown[] }>(client, 'recall', {
        guildId: G1,
        audience: AUDIENCE,
        text: 'nurse',
      });
      expect(r.facts.length).toBeGreaterThan(0);
      await client.close();
      expect(mcp.meter.snapshot().tools['recall']?.outcomes).toEqual({ ok: 1 });
    } finally {
      await serving.close();
      await memory.close();
    }
  });
});

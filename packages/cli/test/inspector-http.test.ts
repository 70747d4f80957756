import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProjects } from '../../../scripts/tools.mjs';
import {
  ALICE,
  BOB,
  CAROL,
  DEMO_GUILD,
  HOSTILE_GUILD,
  HOSTILE_NAME,
  MALLORY,
  openSqlite,
  STAFF_CHANNEL,
  seedInspectorDatabase,
  serveInspector,
  startBotMetrics,
} from './inspector-fixture.js';
import { CLI_BIN, runCli } from './run-cli.js';

const ADMIN_TOKEN = 'inspector-admin-token-0123456789';
let seeded: Awaited<ReturnType<typeof seedInspectorDatabase>>;
let readOnly: { url: string; child: ChildProcess };
let admin: { url: string; child: ChildProcess };

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

function http(
  url: string,
  options: { method?: string; headers?: Record<string, string>; form?: Record<string, string> } = {},
): Promise<Reply> {
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? (body ? 'POST' : 'GET'),
        headers: {
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The result tables of a search page (the query itself is echoed in the title and the input). */
const results = (body: string) => body.slice(body.indexOf('<h2>recall'));

beforeAll(async () => {
  buildProjects(['packages/cli']);
  seeded = await seedInspectorDatabase();
  readOnly = await serveInspector(CLI_BIN, ['--db', seeded.db]);
  admin = await serveInspector(CLI_BIN, ['--db', seeded.db, '--admin-token', ADMIN_TOKEN]);
}, 180_000);

afterAll(() => {
  readOnly?.child.kill('SIGTERM');
  admin?.child.kill('SIGTERM');
  seeded?.cleanup();
});

describe('permafrost inspect --serve over HTTP', () => {
  it('sends a strict CSP, nosniff and no-store with every page and asset; ships its own assets', async () => {
    for (const path of ['', `g/${DEMO_GUILD}`, `g/${DEMO_GUILD}/m/${ALICE}`, 'static/inspector.js', 'nope']) {
      const r = await http(`${readOnly.url}${path}`);
      expect(r.headers['content-security-policy']).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      );
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['cache-control']).toBe('no-store');
    }
    const page = await http(`${readOnly.url}g/${DEMO_GUILD}`);
    expect(page.body).not.toMatch(
      /<script(?! src="\/static\/inspector\.js")|<style|style=|https?:\/\/(?!discord\.com|127\.0\.0\.1)/,
    );
    expect((await http(`${readOnly.url}static/inspector.css`)).headers['content-type']).toMatch(/^text\/css/);
  });

  it('escapes hostile names, text and query strings in the HTML, and never links a javascript: URL', async () => {
    const members = await http(`${readOnly.url}g/${DEMO_GUILD}`);
    expect(members.body).toContain('&lt;img src&#61;x onerror&#61;&quot;window.__pwned&#61;1&quot;&gt;');
    expect(members.body).not.toContain(HOSTILE_NAME.toLowerCase());
    expect(members.body).not.toMatch(/<img|onerror=|onmouseover=/i);
    const search = await http(
      `${readOnly.url}g/${DEMO_GUILD}/search?q=${encodeURIComponent('"><script>alert(1)</script>')}`,
    );
    expect(search.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(search.body).not.toContain('<script>alert');
    expect(search.body).not.toContain('\u202e');
    const hostile = await http(`${readOnly.url}g/${HOSTILE_GUILD}/m/${ALICE}?all=1`);
    expect(hostile.body).not.toMatch(/href="javascript:|<script>window|<svg onload/);
    expect(hostile.body).toContain('title="javascript:window.__pwned&#61;4"');
    const bad = await http(`${readOnly.url}g/%E0%A4%A/m/x`);
    expect(bad.status).toBe(400);
    const unknown = await http(`${readOnly.url}g/${encodeURIComponent('<b>x</b>')}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).not.toContain('<b>');
  });

  it("charts the bot's model usage from --metrics-url, and says when it is only this process's", async () => {
    const own = await http(`${readOnly.url}g/${DEMO_GUILD}/metrics`);
    expect(own.body).toContain('counted by the inspector&#39;s own process');
    const bot = await startBotMetrics(seeded.db);
    const withBot = await serveInspector(CLI_BIN, ['--db', seeded.db, '--metrics-url', bot.url]);
    try {
      const page = await http(`${withBot.url}g/${DEMO_GUILD}/metrics`);
      expect(page.body).toContain('read from the bot&#39;s metrics endpoint');
      const calls = /model calls by purpose[\s\S]*?>extraction<\/text>[\s\S]*?class="value"[^>]*>(\d+)</.exec(
        page.body,
      );
      expect(Number(calls?.[1])).toBeGreaterThan(0);
      expect(page.body).toMatch(/batches completed[\s\S]*?class="value"[^>]*>[1-9]/);
    } finally {
      withBot.child.kill('SIGTERM');
      await bot.close();
    }
    const refused = runCli(seeded.dir, [
      'inspect',
      '--serve',
      '--db',
      seeded.db,
      '--metrics-url',
      'http://example.com/metrics',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('--metrics-url must be');
  });

  it('searches guild-wide by default, and as one channel sees it when asked (its audience)', async () => {
    const search = (extra: string) =>
      http(`${readOnly.url}g/${DEMO_GUILD}/search?q=${encodeURIComponent('moderation rota staff')}${extra}`);
    expect(results((await search('')).body)).toContain('moderation rota');
    expect(results((await search('&channel=700000000000000002')).body)).not.toContain('moderation rota');
    expect(results((await search(`&channel=${STAFF_CHANNEL}`)).body)).toContain('moderation rota');
  });

  it('refuses a foreign Host header (DNS rebinding) and admin actions on a read-only server', async () => {
    expect((await http(readOnly.url, { headers: { host: 'attacker.example' } })).status).toBe(403);
    const post = await http(`${readOnly.url}g/${DEMO_GUILD}/m/${BOB}/purge`, { form: { token: 'x' } });
    expect(post.status).toBe(404);
    const check = openSqlite(seeded.db);
    expect(
      (await check.admin.exportUser({ guildId: DEMO_GUILD, userId: BOB })).factsAbout.length,
    ).toBeGreaterThan(0);
    await check.close();
  });

  it('admin actions need the token and a same-origin form; opt-out hides a member everywhere', async () => {
    const optout = `${admin.url}g/${DEMO_GUILD}/m/${CAROL}/optout`;
    expect((await http(optout, { form: { optedOut: 'true' } })).status).toBe(403);
    expect((await http(optout, { form: { optedOut: 'true', token: `${ADMIN_TOKEN}x` } })).status).toBe(403);
    expect(
      (
        await http(optout, {
          form: { optedOut: 'true', token: ADMIN_TOKEN },
          headers: { origin: 'http://evil.example' },
        })
      ).status,
    ).toBe(403);
    const before = await http(`${admin.url}g/${DEMO_GUILD}/search?q=dog%20biscuit`);
    expect(results(before.body)).toMatch(/biscuit/i);
    const done = await http(optout, { form: { optedOut: 'true', token: ADMIN_TOKEN } });
    expect(done.status).toBe(303);
    expect(done.headers['location']).toBe(`/g/${DEMO_GUILD}/m/${CAROL}`);
    const member = await http(`${admin.url}g/${DEMO_GUILD}/m/${CAROL}`);
    expect(member.body).toContain('opted out of memory');
    expect(member.body).not.toMatch(/caroline|biscuit|japanese/i);
    const search = await http(`${admin.url}g/${DEMO_GUILD}/search?q=dog%20biscuit%20japanese%20caroline`);
    expect(results(search.body)).not.toMatch(/biscuit|japanese|caroline/i);
    expect(results(search.body)).toContain('<h2>recall');
    const guild = await http(`${admin.url}g/${DEMO_GUILD}`);
    expect(guild.body).not.toMatch(/caroline/i);
  });

  it('purge removes the member from every page; forget retires a fact', async () => {
    const purge = await http(`${admin.url}g/${DEMO_GUILD}/m/${MALLORY}/purge`, {
      form: { token: ADMIN_TOKEN },
    });
    expect(purge.status).toBe(303);
    const guild = await http(`${admin.url}g/${DEMO_GUILD}`);
    expect(guild.body).not.toContain(MALLORY);
    expect(guild.body).not.toMatch(/pentester|pwned/);
    const search = await http(`${admin.url}g/${DEMO_GUILD}/search?q=pentester%20hiking%20bold`);
    expect(results(search.body)).not.toMatch(/pentester|pwned|&lt;b&gt;bold/);
    expect(results(search.body)).toContain('<h2>recall');
    expect((await http(`${admin.url}g/${DEMO_GUILD}/m/${MALLORY}`)).status).toBe(404);

    const check = openSqlite(seeded.db);
    // Bob's own statement (a claim by Carol, who opted out above, is hidden from every page).
    const fact = (await check.facts.listForSubject({ guildId: DEMO_GUILD, subjectId: BOB })).items.find(
      (f) => f.attribution.speakerId === null || f.attribution.speakerId === BOB,
    );
    await check.close();
    if (!fact) throw new Error('Bob has no fact');
    const forget = await http(`${admin.url}g/${DEMO_GUILD}/f/${fact.id}/forget`, {
      form: { token: ADMIN_TOKEN },
    });
    expect(forget.status).toBe(303);
    const page = await http(`${admin.url}g/${DEMO_GUILD}/f/${fact.id}`);
    expect(page.body).toMatch(/<li class="current retired"/);
    expect(page.body).toContain('forgotten in the inspector');
  });
});

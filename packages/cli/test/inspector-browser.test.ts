import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProjects } from '../../../scripts/tools.mjs';
import {
  ALICE,
  DEMO_GUILD,
  HOSTILE_ENTITY,
  HOSTILE_FACT,
  HOSTILE_GUILD,
  HOSTILE_NAME,
  HOSTILE_USERNAME,
  MALLORY,
  seedInspectorDatabase,
  serveInspector,
  startBotMetrics,
} from './inspector-fixture.js';
import { CLI_BIN } from './run-cli.js';

/**
 * The web inspector in a real browser: Debian's chromium driven by playwright-core. A missing
 * browser FAILS this file (install it with `apt-get install -y chromium`; .ci/run does): it never
 * skips. Screenshots go to a temp folder, or to PERMAFROST_SCREENSHOTS (docs/img/inspector when
 * refreshing the documentation's pictures).
 */
const CHROMIUM = '/usr/bin/chromium';
const root = join(import.meta.dirname, '..', '..', '..');
const shots = process.env['PERMAFROST_SCREENSHOTS']
  ? resolve(root, process.env['PERMAFROST_SCREENSHOTS'])
  : mkdtempSync(join(tmpdir(), 'permafrost-shots-'));

let seeded: Awaited<ReturnType<typeof seedInspectorDatabase>>;
let server: { url: string; child: ChildProcess };
let bot: Awaited<ReturnType<typeof startBotMetrics>>;
let context: BrowserContext;
let page: Page;
let userData: string;
const problems: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: the inspector's browser test needs Debian's chromium (apt-get update && apt-get install -y chromium)`,
    );
  buildProjects(['packages/cli']);
  seeded = await seedInspectorDatabase();
  bot = await startBotMetrics(seeded.db);
  server = await serveInspector(CLI_BIN, ['--db', seeded.db, '--port', '0', '--metrics-url', bot.url]);
  userData = mkdtempSync(join(tmpdir(), 'permafrost-chromium-'));
  mkdirSync(shots, { recursive: true });
  context = await chromium.launchPersistentContext(userData, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  // Offline: any request that is not the inspector's is a failure.
  await context.route('**/*', (route) =>
    route.request().url().startsWith(server.url) ? route.continue() : route.abort(),
  );
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
}, 180_000);

afterAll(async () => {
  await context?.close();
  server?.child.kill('SIGTERM');
  await bot?.close();
  seeded?.cleanup();
  if (userData) rmSync(userData, { recursive: true, force: true });
  if (!process.env['PERMAFROST_SCREENSHOTS']) rmSync(shots, { recursive: true, force: true });
});

/** Text of the first element matching `selector` (pages are rendered by the server). */
const text = async (selector: string) => (await page.locator(selector).first().textContent()) ?? '';
const pwned = () => page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned ?? null);

describe('permafrost inspect --serve in chromium', { timeout: 90_000 }, () => {
  it('lists guilds and members, and opens a member with facts and a pannable relation graph', async () => {
    await page.goto(server.url);
    expect(await text('h1')).toBe('Guilds');
    await page.screenshot({ path: join(shots, 'guilds.png') });
    await page.click(`a[href="/g/${DEMO_GUILD}"]`);
    await page.waitForURL(`**/g/${DEMO_GUILD}`);
    await page.screenshot({ path: join(shots, 'members.png'), fullPage: true });
    await page.click(`a.member-link[href="/g/${DEMO_GUILD}/m/${ALICE}"]`);
    await page.waitForURL(`**/m/${ALICE}`);
    expect(await text('table.facts')).toContain('Alice moved to Seattle');
    expect(await text('table.facts')).not.toContain('Omaha'); // retired: not active
    const graph = page.locator('svg.graph');
    expect(await graph.locator('.node.centre text').textContent()).toBe('alice');
    const before = await graph.getAttribute('viewBox');
    const box = await graph.boundingBox();
    if (!box) throw new Error('the graph is not visible');
    await page.mouse.move(box.x + 40, box.y + 40);
    await page.mouse.down();
    await page.mouse.move(box.x + 160, box.y + 100, { steps: 5 });
    await page.mouse.up();
    expect(await graph.getAttribute('viewBox')).not.toBe(before);
    await graph.dispatchEvent('dblclick');
    await page.screenshot({ path: join(shots, 'member.png'), fullPage: true });
  });

  it('follows a supersede chain and picks an "as of" date', async () => {
    await page.click('a[href$="?all=1"]');
    expect(await text('table.facts')).toContain('Alice lives in Omaha');
    await page.click('tr.retired a.chain');
    await page.waitForURL(/\/f\/fct_/);
    const versions = page.locator('ol.chain > li .fact-text');
    expect(await versions.allTextContents()).toEqual(['Alice lives in Omaha', 'Alice moved to Seattle']);
    expect(await page.locator('ol.chain > li').first().getAttribute('class')).toMatch(/retired/);
    await page.click('a.next');
    await page.waitForLoadState();
    expect(await text('ol.chain > li.current .fact-text')).toBe('Alice moved to Seattle');
    await page.screenshot({ path: join(shots, 'supersede-chain.png'), fullPage: true });

    await page.goto(`${server.url}g/${DEMO_GUILD}/m/${ALICE}`);
    const validFrom = await page.locator('tr.active td:nth-child(7)').first().textContent();
    const day = /(\d{4}-\d{2}-\d{2})/.exec(validFrom ?? '')?.[1];
    if (!day) throw new Error(`no date in ${validFrom}`);
    await page.fill('input[name="asOf"]', day); // the change event submits the form (inspector.js)
    await page.waitForURL(/asOf=/);
    expect(await text('table.facts')).toContain('Alice lives in Omaha');
    expect(await text('table.facts')).not.toContain('Seattle');
  });

  it('searches with recall and conversation search, showing score components', async () => {
    await page.fill('header .quick-search input', 'who moved to seattle?');
    await page.press('header .quick-search input', 'Enter');
    await page.waitForURL(/\/search\?q=/);
    expect(await text('table.recall tbody')).toContain('Alice moved to Seattle');
    expect(await text('table.recall thead')).toContain('semantic');
    expect(await page.locator('table.recall svg.components').count()).toBeGreaterThan(0);
    await page.locator('table.messages tbody tr').first().waitFor({ state: 'visible' });
    expect(await page.locator('form.search input[name="q"]').inputValue()).toBe('who moved to seattle?');
    await page.screenshot({ path: join(shots, 'search.png'), fullPage: true });
    await page.goto(`${server.url}g/${DEMO_GUILD}/metrics`);
    expect(await page.locator('figure.chart').count()).toBeGreaterThanOrEqual(5);
    expect(await text('p.source-bot')).toContain("read from the bot's metrics endpoint");
    await page.screenshot({ path: join(shots, 'metrics.png'), fullPage: true });
  });

  it('renders hostile names, messages, facts, entities and URLs as text: nothing runs or is injected', async () => {
    await page.goto(`${server.url}g/${DEMO_GUILD}`);
    const mallory = page.locator(`a.member-link[href="/g/${DEMO_GUILD}/m/${MALLORY}"]`);
    await mallory.waitFor({ state: 'visible' });
    const shown = await mallory.textContent();
    expect([HOSTILE_NAME.toLowerCase(), HOSTILE_USERNAME.toLowerCase()]).toContain(shown);
    await mallory.hover();
    await mallory.click();
    await page.waitForURL(`**/m/${MALLORY}`);
    expect(await text('h1.member-name')).toContain(shown ?? '');
    await page.locator('h1.member-name').hover();
    await page.goto(`${server.url}g/${DEMO_GUILD}/search?q=${encodeURIComponent('<script>hiking</script>')}`);
    expect(await text('table.messages')).toContain('<script>window.__pwned=3</script>');
    expect(await page.locator('form.search input[name="q"]').inputValue()).toBe('<script>hiking</script>');
    await page.screenshot({ path: join(shots, 'hostile-search.png'), fullPage: true });

    await page.goto(`${server.url}g/${HOSTILE_GUILD}/m/${ALICE}?all=1`);
    expect(await text('table.facts')).toContain(HOSTILE_FACT);
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(await page.locator('span.source.unlinked').count()).toBeGreaterThan(0);
    await page.goto(`${server.url}g/${HOSTILE_GUILD}`);
    expect(await text('ul.entities')).toContain(HOSTILE_ENTITY);

    for (const path of [
      `g/${DEMO_GUILD}`,
      `g/${DEMO_GUILD}/m/${MALLORY}`,
      `g/${HOSTILE_GUILD}/m/${ALICE}?all=1`,
    ]) {
      await page.goto(`${server.url}${path}`);
      expect(await pwned()).toBeNull();
      // Evaluated in the page (a string: this test is typechecked without the DOM library).
      const injected = await page.evaluate(`({
        scripts: [...document.scripts].map((s) => s.getAttribute('src')),
        imgs: document.querySelectorAll('img').length,
        handlers: [...document.querySelectorAll('*')].filter((el) =>
          [...el.attributes].some((a) => a.name.startsWith('on')),
        ).length,
        svgInMain: document.querySelectorAll('main svg svg').length,
      })`);
      expect(injected).toEqual({ scripts: ['/static/inspector.js'], imgs: 0, handlers: 0, svgInMain: 0 });
    }
    expect(problems).toEqual([]);
  });
});

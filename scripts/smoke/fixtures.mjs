// Files the package smoke test writes into its scratch application (outside the clone).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../tools.mjs';

export const SNIPPET_START = '<!-- snippet:bot:start -->';
export const SNIPPET_END = '<!-- snippet:bot:end -->';

/** The README's "use it in a bot" code, verbatim: the one ```ts block between the markers. */
export function readmeSnippet() {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(SNIPPET_START);
  const end = readme.indexOf(SNIPPET_END);
  if (start === -1 || end === -1 || end < start)
    throw new Error(`README.md has no ${SNIPPET_START} … ${SNIPPET_END} section`);
  const blocks = [...readme.slice(start, end).matchAll(/```ts\n([\s\S]*?)```/g)];
  if (blocks.length !== 1)
    throw new Error(`expected one \`\`\`ts block between the markers, found ${blocks.length}`);
  return blocks[0][1];
}

/** A strict tsconfig for the scratch app; `resolution` is 'nodenext' or 'bundler'. */
export function tsconfig(resolution, files, emit) {
  const options = {
    target: 'ES2022',
    lib: ['ES2023'],
    module: resolution === 'bundler' ? 'ESNext' : 'NodeNext',
    moduleResolution: resolution === 'bundler' ? 'Bundler' : 'NodeNext',
    types: ['node'],
    strict: true,
    skipLibCheck: false,
    noEmit: !emit,
    ...(emit ? { outDir: '.', rootDir: '.' } : {}),
  };
  return `${JSON.stringify({ compilerOptions: options, files }, null, 2)}\n`;
}

/** Imports the headline types (and each store's entry point) the way an application does. */
export const HEADLINE_TYPES = `import { type ContextInput, createMemory, type MemoryConfigInput, MemoryError, type PromptContext, type PromptContextInput, type RecallQueryInput, type RecallResult, type TwoTierContext } from '@permafrost/core';
import { setupDiscordMemory } from '@permafrost/discord';
import { createMongoStore } from '@permafrost/store-mongo';
import { createSqliteStore } from '@permafrost/store-sqlite';

const config: MemoryConfigInput = { storage: 'sqlite://app.db', llm: 'heuristic' };
const memory = createMemory(config);
const input: PromptContextInput = { guildId: '1', askerId: '2', text: 'hello' };
const query: RecallQueryInput = { guildId: '1', text: 'hello' };
const conversation: ContextInput = { guildId: '1', channelId: '3', askerId: '2', text: 'hello' };

export async function use(): Promise<string[]> {
  const ctx: PromptContext = await memory.promptContext(input);
  const recalled: RecallResult = await memory.recall(query);
  const twoTier: TwoTierContext = await memory.context(conversation);
  const block: string = ctx.injectionBlock;
  return [block, String(recalled.facts.length), String(twoTier), String(MemoryError)];
}

export const stores = [createSqliteStore, createMongoStore, setupDiscordMemory] as const;
`;

/**
 * Plays a short guild conversation through the README snippet (compiled to bot.js) with message
 * objects shaped like discord.js' (only the fields the snippet reads), then prints the system
 * prompt the snippet built.
 */
export const DRIVER = `import { memory, onMessage, replyTo } from './bot.js';

const guildId = '800000000000000001';
const channelId = '800000000000000002';
const alice = { id: '810000000000000001', username: 'alice', displayName: 'Alice' };
const bob = { id: '810000000000000002', username: 'bob', displayName: 'Bob' };
let n = 0;
const replies = [];
function message(who, content, mentions = []) {
  n += 1;
  return {
    id: String(820000000000000000n + BigInt(n)),
    guildId,
    channelId,
    author: { id: who.id, username: who.username, bot: false },
    member: { displayName: who.displayName },
    content,
    createdAt: new Date(Date.UTC(2026, 10, 1, 18, n)),
    mentions: { users: new Map(mentions.map((m) => [m.id, m])) },
    inGuild: () => true,
    reply: async (text) => {
      replies.push(text);
    },
  };
}

await onMessage(message(alice, 'hey everyone! i live in omaha and i work as a nurse'));
await onMessage(message(alice, 'i love hiking and my favorite food is ramen'));
await onMessage(message(bob, 'welcome alice! i love rust and i play chess every weekend'));
await memory.flush();
let system = '';
await replyTo(message(bob, 'what do you know about alice?', [alice]), async (prompt) => {
  system = prompt;
  return 'Alice lives in Omaha [mem:1].';
});
await memory.close();
process.stdout.write(JSON.stringify({ system, replies }));
`;

/** Uses a store URL in an app that installed @permafrost/core alone. */
export const MISSING_STORE = `import { createMemory, MemoryError } from '@permafrost/core';

const memory = createMemory({ storage: 'sqlite://missing-store.db', llm: null });
try {
  await memory.start();
  process.stdout.write(JSON.stringify({ started: true }));
} catch (error) {
  process.stdout.write(
    JSON.stringify({ memoryError: error instanceof MemoryError, code: error.code, message: error.message }),
  );
}
`;

/** Opens a SQLite store and prints the error code and message of start(). */
export const OPEN_SQLITE = `import { createMemory } from '@permafrost/core';
import '@permafrost/store-sqlite';

const memory = createMemory({ storage: 'sqlite://no-driver.db', llm: null });
try {
  await memory.start();
  process.stdout.write(JSON.stringify({ started: true }));
} catch (error) {
  process.stdout.write(JSON.stringify({ code: error.code, message: error.message }));
} finally {
  await memory.close().catch(() => undefined);
}
`;

/**
 * A SQLite file whose message keyword index is big enough for the store's read thread (10,000
 * messages, hashing vectors): one conversation.search, then the store's thread events and the hits.
 */
export const BIG_SEARCH = `import { createMemory } from '@permafrost/core';
import '@permafrost/store-sqlite';

const events = [];
const memory = createMemory(
  {
    storage: 'sqlite://big-search.db',
    llm: null,
    embeddings: 'hashing',
    workers: { enabled: false },
    access: { requireAudience: false },
    observe: { maxQueueDepthPerGuild: 1_000_000 },
  },
  { logger: (e) => events.push(e.event) },
);
const words = ['violin', 'garden', 'river', 'coffee', 'lantern', 'orbit', 'bread', 'chess'];
const at = Date.UTC(2026, 0, 1);
for (let start = 0; start < 10_000; start += 1000)
  await memory.observeMany(
    Array.from({ length: 1000 }, (_, j) => {
      const i = start + j;
      return {
        guildId: '100000000000000001',
        channelId: String(200000000000000000n + BigInt(i % 50)),
        messageId: String(300000000000000000n + BigInt(i)),
        authorId: String(400000000000000000n + BigInt(i % 7)),
        content: words[i % 8] + ' and ' + words[(i * 3) % 8] + ' number ' + i,
        createdAt: new Date(at + i * 60_000),
      };
    }),
  );
await memory.flush();
const found = await memory.conversation.search({ guildId: '100000000000000001', text: 'violin river' });
await memory.close({ drain: false });
process.stdout.write(JSON.stringify({ hits: found.messages.length, events: events.filter((e) => e.startsWith('sqlite.read_thread')) }));
`;

/**
 * An MCP client (the SDK the tarball of @permafrost/mcp brought in) that spawns
 * `permafrost mcp --db <db> --guild <guild>` over stdio, lists the tools and asks facts_about.
 * Prints `{ tools, facts }` as JSON.
 */
export const MCP_CLIENT = `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const [db, guildId, userId] = process.argv.slice(2);
const cliPkg = createRequire(import.meta.url).resolve('@permafrost/cli/package.json');
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [join(dirname(cliPkg), 'dist', 'bin.js'), 'mcp', '--db', db, '--guild', guildId],
  stderr: 'ignore',
});
const client = new Client({ name: 'smoke', version: '1.0.0' });
await client.connect(transport);
const { tools } = await client.listTools();
const r = await client.callTool({
  name: 'facts_about',
  // Asked in the demo's channel: what was learned there is visible to it.
  arguments: { guildId, audience: { channelId: '700000000000000002' }, userId },
});
await client.close();
process.stdout.write(JSON.stringify({ tools: tools.map((t) => t.name), facts: r.structuredContent.facts.map((f) => f.text) }));
`;

/**
 * Starts the installed `permafrost inspect --serve` on a database, fetches a member page and the
 * shipped static assets, stops it, and prints `{ status, member, js, css, csp }` as JSON.
 */
export const INSPECTOR_PROBE = `import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const [db, guildId, userId] = process.argv.slice(2);
const cliPkg = createRequire(import.meta.url).resolve('@permafrost/cli/package.json');
const child = spawn(process.execPath, [join(dirname(cliPkg), 'dist', 'bin.js'), 'inspect', '--serve', '--db', db], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const base = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d) => {
    out += d;
    const m = /inspector: (http:\\/\\/127\\.0\\.0\\.1:\\d+\\/)/.exec(out);
    if (m) resolve(m[1]);
  });
  child.on('exit', (code) => reject(new Error('inspect --serve exited ' + code)));
});
try {
  const page = await fetch(base + 'g/' + guildId + '/m/' + userId);
  const js = await fetch(base + 'static/inspector.js');
  const css = await fetch(base + 'static/inspector.css');
  process.stdout.write(JSON.stringify({
    status: page.status,
    member: await page.text(),
    csp: page.headers.get('content-security-policy'),
    js: js.status === 200 && (await js.text()).includes('panZoom'),
    css: css.status === 200 && (css.headers.get('content-type') ?? '').startsWith('text/css'),
  }));
} finally {
  child.kill('SIGTERM');
}
`;

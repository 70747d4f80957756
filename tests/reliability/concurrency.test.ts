import { join } from 'node:path';
import { createMemory, type Memory, type MessageEventInput } from '@permafrost/core';
import { type ScriptedOpenAiServer, startScriptedOpenAiServer } from '@permafrost/core/testing';
import '@permafrost/store-sqlite';
import { createMongoStore } from '@permafrost/store-mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildExit, startChild } from './support/children.js';
import { createOracle, extractionRequests, parsePrompt } from './support/oracle.js';
import { ensureBuilt, tempDir } from './support/paths.js';
import { CONSISTENT, inspectSqlite } from './support/sqlite-inspect.js';
import { dropMongoDatabase, requireMongoUrl, selectedStoreNames } from './support/stores.js';
import { chat, marker, members, stampFact, stampMessage } from './support/world.js';

/**
 * Concurrency (issue #12 §2): two observer processes and two worker processes share one SQLite
 * file (and, when STORES includes mongo, one MongoDB database) while a few hundred messages of 20 members arrive. Every message is extracted exactly once,
 * none is lost, and no fact is stored twice — also when a member's fact is stated by the member
 * and by someone else in batches that different workers extract at the same time.
 */

const GUILD = '980000000000000001';
const AUTHORS = members(20);

/**
 * Messages per run: 20 members × 12 self statements + 60 third-party repeats (300) on SQLite. On
 * MongoDB (FerretDB on the same small machine, ~0.25 s per observe under this load) 20 × 4 + 20
 * (100) keeps the suite under five minutes; every property is the same.
 */
const SCALE = {
  sqlite: { selfPerAuthor: 12, thirdParty: 60 },
  mongo: { selfPerAuthor: 4, thirdParty: 20 },
} as const;
type Scale = (typeof SCALE)[keyof typeof SCALE];

let server: ScriptedOpenAiServer;
let tmp: ReturnType<typeof tempDir>;

beforeAll(async () => {
  ensureBuilt();
  tmp = tempDir('concurrency');
  server = await startScriptedOpenAiServer({ handler: createOracle() });
}, 120_000);

afterAll(async () => {
  await server?.close();
  tmp?.cleanup();
});

interface Planned {
  readonly event: MessageEventInput;
  /**
   * Identifies the message's line in a prompt: the whole content of a self statement, the unique
   * witness word of a third-party one (its mention is rewritten to whatever name is known then).
   */
  readonly matches: (line: string) => boolean;
}

/** Deterministic plan: self statements per member, third-party repeats of someone's statement. */
function plan({ selfPerAuthor, thirdParty }: Scale): Planned[] {
  const out: Planned[] = [];
  let seq = 0;
  const t0 = Date.now() - 120_000;
  const at = () => new Date(t0 + seq * 10);
  for (let round = 0; round < selfPerAuthor; round++)
    for (const [a, author] of AUTHORS.entries()) {
      seq++;
      const content = stampMessage(marker('conc', a * 100 + round));
      out.push({
        event: chat(`${GUILD.slice(0, 4)}${String(seq).padStart(14, '0')}`, author, content, {
          guildId: GUILD,
          at: at(),
        }),
        matches: (line) => line === content,
      });
    }
  for (let k = 0; k < thirdParty; k++) {
    seq++;
    const speaker = AUTHORS[(k * 7) % AUTHORS.length] as (typeof AUTHORS)[number];
    const t = (k * 7 + 3) % AUTHORS.length;
    const target = AUTHORS[t] as (typeof AUTHORS)[number];
    const round = k % selfPerAuthor;
    const word = marker('conc', t * 100 + round);
    const witness = marker('seen', k);
    out.push({
      event: chat(
        `${GUILD.slice(0, 4)}${String(seq).padStart(14, '0')}`,
        speaker,
        `${witness} I saw that <@${target.id}> collects ${word} stamps, a huge album`,
        { guildId: GUILD, at: at(), mentions: [target.id] },
      ),
      matches: (line) => line.startsWith(`${witness} `),
    });
  }
  // Interleave third-party statements among the self statements (arrival order = plan order).
  const selfs = out.slice(0, AUTHORS.length * selfPerAuthor);
  const others = out.slice(selfs.length);
  const mixed: Planned[] = [];
  for (const [i, p] of selfs.entries()) {
    mixed.push(p);
    if (i % 4 === 3 && others.length > 0) mixed.push(others.shift() as Planned);
  }
  return [...mixed, ...others];
}

async function expectClean(exit: ChildExit) {
  expect(exit.code, exit.stderr).toBe(0);
  expect(exit.messages.at(-1)).toMatchObject({ event: 'done' });
}

interface Backend {
  readonly name: 'sqlite' | 'mongo';
  /** Fixture arguments naming the shared store. */
  readonly args: Record<string, unknown>;
  /** A memory on the shared store in this process (for checks), and how to drop the store. */
  open(): Memory;
  readonly path: string | null;
  cleanup(): Promise<void>;
}

function sqliteBackend(): Backend {
  const path = join(tmp.dir, 'shared.db');
  return {
    name: 'sqlite',
    args: { path },
    path,
    open: () =>
      createMemory({
        storage: `sqlite://${path}`,
        llm: null,
        workers: { enabled: false },
        access: { requireAudience: false },
      }),
    cleanup: async () => {},
  };
}

function mongoBackend(): Backend {
  const url = requireMongoUrl();
  const dbName = `pf_conc_${process.pid}_${Date.now().toString(36)}`;
  const args = { mongo: { url, dbName } };
  return {
    name: 'mongo',
    args,
    path: null,
    open: () =>
      createMemory(
        {
          storage: `mongodb://unused/${dbName}`,
          llm: null,
          workers: { enabled: false },
          access: { requireAudience: false },
        },
        { store: createMongoStore({ url, dbName }) },
      ),
    cleanup: () => dropMongoDatabase(url, dbName),
  };
}

const BACKENDS = selectedStoreNames().filter((n) => n === 'sqlite' || n === 'mongo');

describe.each(BACKENDS)('2 observer + 2 worker processes on one %s store', (name) => {
  it('extracts every message exactly once, loses none, stores no fact twice', async () => {
    const backend = name === 'mongo' ? mongoBackend() : sqliteBackend();
    const setup = backend.open();
    await setup.start();
    await setup.close();
    const scale = SCALE[name as keyof typeof SCALE];
    const planned = plan(scale);
    const total = planned.length;
    expect(total).toBe(AUTHORS.length * scale.selfPerAuthor + scale.thirdParty);

    const from = server.requests.length;
    const observers = [0, 1].map((o) =>
      startChild('observer', {
        ...backend.args,
        events: planned.filter((_, i) => i % 2 === o).map((p) => p.event),
        report: true,
        pauseMs: 2,
      }),
    );
    const workers = [0, 1].map((w) =>
      startChild('worker', {
        ...backend.args,
        llmUrl: server.url,
        // As a bot's endpoint is configured: a request lost on a busy machine (a kept-alive
        // connection closed under it) is sent again, not counted as a failed batch.
        llmMaxRetries: 2,
        mode: 'loop',
        guildId: GUILD,
        expected: total,
        workers: 2,
        batchSize: 4,
        maxAgeSeconds: 1,
        leaseSeconds: 30,
        instanceId: `worker-${w}`,
        durationMs: 150_000,
      }),
    );
    const [o1, o2, w1, w2] = await Promise.all([...observers, ...workers].map((c) => c.exit));
    for (const e of [o1, o2, w1, w2]) await expectClean(e as ChildExit);
    for (const o of [o1, o2]) {
      const done = (o as ChildExit).messages.at(-1) as { receipts: { status: string }[] };
      expect(new Set(done.receipts.map((r) => r.status))).toEqual(new Set(['accepted']));
    }
    for (const w of [w1, w2]) expect((w as ChildExit).messages.at(-1)).toMatchObject({ failures: [] });
    // Both worker processes did real work.
    for (const w of [w1, w2])
      expect(((w as ChildExit).messages.at(-1) as { batches: number }).batches).toBeGreaterThan(0);

    // Exactly-once extraction: every message line appears in exactly one member-batch request.
    const lines = extractionRequests(server.requests.slice(from))
      .map((r) => parsePrompt(r.text))
      .filter((p) => p.scope === 'member')
      .flatMap((p) => p.lines.map((l) => l.content));
    expect(lines).toHaveLength(total);
    const counts = planned.map((p) => lines.filter((l) => p.matches(l)).length);
    expect(counts.filter((n) => n !== 1)).toEqual([]);

    const memory = backend.open();
    try {
      // Nothing lost: every message processed, every statement a fact.
      const health = await memory.ops.health();
      expect(health).toMatchObject({ pending: 0, deadLetters: 0 });
      expect(await memory.stats({ guildId: GUILD })).toMatchObject({ guildId: GUILD });
      const facts = (await memory.admin.exportGuild({ guildId: GUILD })).facts;
      const active = facts.filter((f) => f.validUntil === null && f.supersededById === null);
      // On a miss, every stored fact holding the statement's marker word, whatever its state.
      const holding = (word: string) =>
        JSON.stringify(
          facts
            .filter((f) => f.text.includes(word))
            .map((f) => ({
              subject: AUTHORS.find((m) => m.id === f.subjectId)?.name ?? f.subjectId,
              text: f.text,
              attribution: f.attribution.type,
              occurrences: f.occurrences,
              active: f.validUntil === null && f.supersededById === null,
            })),
        );
      for (const [a, author] of AUTHORS.entries())
        for (let round = 0; round < scale.selfPerAuthor; round++) {
          const word = marker('conc', a * 100 + round);
          const text = stampFact(author.name, word);
          expect(
            active.filter((f) => f.subjectId === author.id && f.text === text),
            `${text}; stored with its word: ${holding(word)}`,
          ).toHaveLength(1);
        }
      // No duplicates among active facts (subject + normalized text).
      const keys = active.map((f) => `${f.subjectId}\u0000${f.normalizedText}`);
      expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
      // Statements made twice (by the member and by a witness) reinforced one fact instead.
      expect(active.filter((f) => f.occurrences > 1).length).toBeGreaterThan(0);
      const processed = await Promise.all(
        AUTHORS.map((a) =>
          memory.conversation.authorHistory({ guildId: GUILD, authorId: a.id, limit: 1000 }),
        ),
      );
      expect(processed.flat()).toHaveLength(total);
    } finally {
      await memory.close();
      await backend.cleanup();
    }
    if (backend.path) expect(inspectSqlite(backend.path)).toMatchObject(CONSISTENT);
  }, 240_000);
});

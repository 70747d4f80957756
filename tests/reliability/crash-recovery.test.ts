import { join } from 'node:path';
import { createMemory, type ExtractionFailed, type Memory } from '@permafrost/core';
import {
  FixedClock,
  type RecordedOpenAiRequest,
  type ScriptedOpenAiServer,
  startScriptedOpenAiServer,
} from '@permafrost/core/testing';
import { createSqliteStore } from '@permafrost/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Child, startChild } from './support/children.js';
import { createOracle, extractionRequests, parsePrompt } from './support/oracle.js';
import { ensureBuilt, tempDir } from './support/paths.js';
import { CONSISTENT, factRows, inspectSqlite, messageRows } from './support/sqlite-inspect.js';
import { chat, type Member, marker, member, stampFact, stampMessage } from './support/world.js';

/**
 * Crash recovery (issue #12 §1): a worker or observer process is SIGKILLed at a precise point, then a
 * new process picks up after the lease expired. Every batch must be committed exactly once, nothing
 * partial may survive the killed attempt, and nothing may be dead-lettered.
 */

const LEASE_SECONDS = 5;
const BATCH = 4;

let server: ScriptedOpenAiServer;
let tmp: ReturnType<typeof tempDir>;
/** Set by a test that kills the worker when its extraction request arrives. */
let onExtraction: ((request: RecordedOpenAiRequest) => boolean) | null = null;

beforeAll(async () => {
  ensureBuilt();
  tmp = tempDir('crash');
  server = await startScriptedOpenAiServer({
    handler: createOracle((request) => {
      // Killing the caller mid-call: hold the reply so the request is in flight when the worker dies.
      if (onExtraction?.(request)) return { delayMs: 60_000, json: { operations: [] } };
      return undefined;
    }),
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
  tmp?.cleanup();
});

const llmConfig = () => ({ baseUrl: server.url, model: 'oracle', timeoutMs: 60_000, maxRetries: 0 });

interface Scenario {
  readonly path: string;
  readonly guildId: string;
  readonly authors: readonly Member[];
  /** Marker words per author, in observation order. */
  readonly words: ReadonlyMap<string, readonly string[]>;
}

/** Writes BATCH favourite-word messages for each author with a plain (non-extracting) memory. */
async function seed(name: string, guildId: string, extra: (string | null)[] = []): Promise<Scenario> {
  const tag = name.replace(/[^a-z]/g, '');
  const path = join(tmp.dir, `${name}.db`);
  const authors = [member(1), member(2)];
  const words = new Map<string, string[]>();
  const memory = createMemory({ storage: `sqlite://${path}`, llm: null, workers: { enabled: false } });
  let seq = 0;
  const t0 = Date.now() - 60_000;
  for (const author of authors) {
    const list: string[] = [];
    for (let i = 0; i < BATCH; i++) {
      const word = marker(`${tag}${author.name.toLowerCase()}`, i);
      list.push(word);
      seq++;
      const receipt = await memory.observe(
        chat(`${guildId}${String(seq).padStart(4, '0')}`, author, extra[seq - 1] ?? stampMessage(word), {
          guildId,
          at: new Date(t0 + seq * 1000),
        }),
      );
      expect(receipt.status).toBe('accepted');
    }
    words.set(author.id, list);
  }
  await memory.close({ drain: false });
  return { path, guildId, authors, words };
}

/** The crash points are points of one member's batch, so each batch gets its own extraction call here. */
function workerArgs(s: Scenario, crash: string | null, shareCalls = false) {
  return {
    path: s.path,
    llmUrl: server.url,
    leaseSeconds: LEASE_SECONDS,
    batchSize: BATCH,
    maxMessagesPerCall: shareCalls ? 4 * BATCH : BATCH,
    serverWindowMessages: 5,
    crash,
    guildId: s.guildId,
  };
}

/** Member-scope extraction requests that contain a word. */
const requestsWith = (word: string, from = 0) =>
  extractionRequests(server.requests.slice(from)).filter(
    (r) => parsePrompt(r.text).scope === 'member' && r.text.includes(word),
  ).length;

/** A memory in this (test) process on the file, with its clock past every lease the dead worker held. */
function restartedMemory(path: string): { memory: Memory; failures: ExtractionFailed[] } {
  const clock = new FixedClock(new Date(Date.now() + 10 * 60_000));
  const memory = createMemory(
    {
      storage: `sqlite://${path}`,
      llm: llmConfig(),
      workers: { enabled: false, count: 1, maxAttempts: 3, backoffBaseSeconds: 0 },
      batching: {
        leaseSeconds: LEASE_SECONDS,
        batchSizeMessages: BATCH,
        maxMessagesPerCall: BATCH,
        serverWindowMessages: 5,
      },
      extraction: { digestEveryFacts: 0 },
    },
    { clock },
  );
  const failures: ExtractionFailed[] = [];
  memory.events.on('ExtractionFailed', (e) => failures.push(e));
  return { memory, failures };
}

/** Every marker is one active fact with one occurrence; nothing partial; queue fully processed. */
async function expectCommittedOnce(s: Scenario, messages: number) {
  const facts = factRows(s.path).filter((f) => f.guild_id === s.guildId);
  for (const author of s.authors)
    for (const word of s.words.get(author.id) ?? []) {
      const matching = facts.filter((f) => f.text === stampFact(author.name, word));
      expect(matching, `fact for ${word}`).toHaveLength(1);
      expect(matching[0]).toMatchObject({ subject_id: author.id, occurrences: 1, valid_until: null });
    }
  expect(inspectSqlite(s.path)).toMatchObject({ ...CONSISTENT, facts: messages, factVectors: messages });
  const store = createSqliteStore({ path: s.path });
  try {
    expect(await store.queue.counts(s.guildId)).toEqual({
      pending: 0,
      claimed: 0,
      processed: messages,
      dead: 0,
    });
    expect(await store.vectors.count(s.guildId, 'fact')).toBe(messages);
    expect(await store.vectors.count(s.guildId, 'message')).toBe(messages);
    for (const words of s.words.values())
      for (const word of words) {
        const hits = await store.facts.searchText({ guildId: s.guildId }, [word], 10);
        expect(hits, `keyword rows for ${word}`).toHaveLength(1);
      }
  } finally {
    await store.close();
  }
}

async function expectKilled(child: Child) {
  const exit = await child.exit;
  expect(exit.signal, exit.stderr).toBe('SIGKILL');
}

describe('a worker SIGKILLed mid-batch', () => {
  // Points inside one batch, in pipeline order; `committed` = the batch was durable when it died.
  // The last three are inside the one commit transaction (facts, vectors, keyword rows, history,
  // message vectors, "messages processed"), so a death there must leave nothing of the batch.
  const points = [
    { crash: 'after-claim', committed: false },
    { crash: 'after-fact-insert', committed: false },
    { crash: 'after-fact-vector', committed: false },
    { crash: 'during-message-vectors', committed: false },
    { crash: 'before-complete', committed: false },
    { crash: 'after-commit', committed: true },
  ] as const;

  it.each(points)(
    'killed $crash: after the lease expires the batch is committed exactly once',
    async ({ crash, committed }) => {
      const s = await seed(
        crash,
        `93${String(points.findIndex((p) => p.crash === crash)).padStart(16, '0')}`,
      );
      const [first, second] = s.authors as [Member, Member];
      const firstWords = s.words.get(first.id) ?? [];
      const before = server.requests.length;
      const child = startChild('worker', workerArgs(s, crash));
      await expectKilled(child);
      expect(requestsWith(firstWords[0] as string, before)).toBe(crash === 'after-claim' ? 0 : 1);

      // What the dead process left: a consistent file, its batch claimed, committed or not at all.
      expect(inspectSqlite(s.path)).toMatchObject(CONSISTENT);
      const leftFacts = factRows(s.path).filter((f) => f.guild_id === s.guildId);
      expect(leftFacts).toHaveLength(committed ? BATCH : 0);
      expect(
        messageRows(s.path)
          .filter((m) => m.author_id === first.id)
          .map((m) => m.status),
      ).toEqual(Array(BATCH).fill(committed ? 'processed' : 'claimed'));

      const restartFrom = server.requests.length;
      const { memory, failures } = restartedMemory(s.path);
      try {
        expect(await memory.flush({ guildId: s.guildId })).toBeGreaterThanOrEqual(1);
      } finally {
        await memory.close({ drain: false });
      }
      expect(failures).toEqual([]);
      // The killed batch is extracted again only when its facts were not committed; the other once.
      expect(requestsWith(firstWords[0] as string, restartFrom)).toBe(committed ? 0 : 1);
      expect(requestsWith((s.words.get(second.id) ?? [])[0] as string, restartFrom)).toBe(1);
      await expectCommittedOnce(s, 2 * BATCH);
    },
    60_000,
  );

  it('killed before completing a call shared by two members: neither batch is committed, both are redone once', async () => {
    const s = await seed('shared', '935000000000000001');
    const [first, second] = s.authors as [Member, Member];
    const before = server.requests.length;
    const child = startChild('worker', workerArgs(s, 'before-complete', true));
    await expectKilled(child);
    // One call carried both members' batches.
    const firstWord = (s.words.get(first.id) ?? [])[0] as string;
    const secondWord = (s.words.get(second.id) ?? [])[0] as string;
    const shared = extractionRequests(server.requests.slice(before)).filter(
      (r) => r.text.includes(firstWord) && r.text.includes(secondWord),
    );
    expect(shared).toHaveLength(1);
    expect(inspectSqlite(s.path)).toMatchObject(CONSISTENT);
    expect(factRows(s.path).filter((f) => f.guild_id === s.guildId)).toEqual([]);
    expect(new Set(messageRows(s.path).map((m) => m.status))).toEqual(new Set(['claimed']));

    const restartFrom = server.requests.length;
    const { memory, failures } = restartedMemory(s.path);
    try {
      await memory.flush({ guildId: s.guildId });
    } finally {
      await memory.close({ drain: false });
    }
    expect(failures).toEqual([]);
    expect(requestsWith(firstWord, restartFrom)).toBe(1);
    expect(requestsWith(secondWord, restartFrom)).toBe(1);
    await expectCommittedOnce(s, 2 * BATCH);
  }, 60_000);

  it('killed while the model is answering: a new process takes over once the lease has really expired', async () => {
    const s = await seed('llmcall', '940000000000000001');
    const [first, second] = s.authors as [Member, Member];
    const firstWord = (s.words.get(first.id) ?? [])[0] as string;
    let child: Child | null = null;
    let seen = 0;
    onExtraction = (request) => {
      if (!request.text.includes(firstWord)) return false;
      seen++;
      child?.kill();
      return true;
    };
    try {
      child = startChild('worker', workerArgs(s, null));
      await expectKilled(child);
    } finally {
      onExtraction = null;
    }
    expect(seen).toBe(1);
    expect(factRows(s.path).filter((f) => f.guild_id === s.guildId)).toEqual([]);
    expect(inspectSqlite(s.path)).toMatchObject(CONSISTENT);

    // A second worker process before the lease expires finds the key leased: it extracts nothing of it.
    const early = server.requests.length;
    const busy = await startChild('worker', workerArgs(s, null)).exit;
    expect(busy.code, busy.stderr).toBe(0);
    expect(requestsWith(firstWord, early)).toBe(0);
    expect(requestsWith((s.words.get(second.id) ?? [])[0] as string, early)).toBe(1);

    // After the real lease time, a third process recovers the batch.
    await new Promise((r) => setTimeout(r, LEASE_SECONDS * 1000 + 500));
    const late = server.requests.length;
    const done = await startChild('worker', workerArgs(s, null)).exit;
    expect(done.code, done.stderr).toBe(0);
    expect(done.messages.at(-1)).toMatchObject({ event: 'done', failures: [] });
    expect(requestsWith(firstWord, late)).toBe(1);
    await expectCommittedOnce(s, 2 * BATCH);
  }, 60_000);

  it.each([
    { crash: 'before-community-cursor', committed: false },
    { crash: 'after-commit', committed: true },
  ] as const)(
    'killed in the community pass ($crash): the window is committed exactly once',
    async ({ crash, committed }) => {
      const tag = crash === 'after-commit' ? 'mottoa' : 'mottob';
      const mottos = Array.from({ length: 2 * BATCH }, (_, i) => marker(tag, i));
      const s = await seed(
        `community${tag}`,
        `95000000000000000${committed ? 1 : 2}`,
        mottos.map((m) => `our server motto is ${m} and everyone here agrees with it`),
      );
      const from = server.requests.length;
      const communityRequests = () =>
        extractionRequests(server.requests.slice(from)).filter(
          (r) => parsePrompt(r.text).scope === 'community',
        ).length;
      const child = startChild('worker', { ...workerArgs(s, crash), mode: 'community' });
      await expectKilled(child);
      expect(communityRequests()).toBe(1);
      const serverFacts = () => factRows(s.path).filter((f) => f.subject_id === null);
      const left = serverFacts();
      expect(left.length > 0).toBe(committed);
      expect(inspectSqlite(s.path)).toMatchObject(CONSISTENT);

      const { memory, failures } = restartedMemory(s.path);
      await memory.ops.runPending({ guildId: s.guildId });
      await memory.close({ drain: false });
      expect(failures).toEqual([]);
      expect(communityRequests(), 'community window extractions in total').toBe(committed ? 1 : 2);
      const after = serverFacts();
      // The window (the newest 5 messages) gives one server fact per motto in it, each once.
      expect(after).toHaveLength(5);
      for (const f of after) expect(f.occurrences).toBe(1);
      expect(new Set(after.map((f) => f.text)).size).toBe(5);
      if (committed) expect(after.map((f) => f.id)).toEqual(left.map((f) => f.id));
      expect(inspectSqlite(s.path)).toMatchObject(CONSISTENT);
    },
    60_000,
  );
});

describe('an observer SIGKILLed during observeMany', () => {
  const N = 12;
  // The first message is the only one of its author (so a lost name registration would show).
  const loner = member(4);
  const author = member(3);
  const authorOf = (i: number) => (i === 0 ? loner : author);
  const events = (guildId: string) =>
    Array.from({ length: N }, (_, i) =>
      chat(
        `${guildId.slice(0, 6)}${String(i).padStart(12, '0')}`,
        authorOf(i),
        stampMessage(marker('obs', i)),
        {
          guildId,
          at: new Date(Date.now() - 60_000 + i * 100),
        },
      ),
    );

  async function recoverAndCheck(path: string, guildId: string) {
    const all = events(guildId);
    // Every message is either stored exactly as sent or absent, and the stored ones are a prefix.
    const rows = messageRows(path).filter((m) => m.guild_id === guildId);
    const stored = rows.length;
    expect(rows.map((r) => [r.message_id, r.content])).toEqual(
      all.slice(0, stored).map((e) => [e.messageId, e.content]),
    );
    expect(inspectSqlite(path)).toMatchObject(CONSISTENT);

    const { memory, failures } = restartedMemory(path);
    try {
      const receipts = await memory.observeMany(all);
      expect(receipts.map((r) => r.status)).toEqual([
        ...Array(stored).fill('ignored'),
        ...Array(N - stored).fill('accepted'),
      ]);
      expect(receipts.slice(0, stored).every((r) => r.reason === 'duplicate')).toBe(true);
      await memory.flush({ guildId });
      // Names are registered even if the process died right after writing an author's only row.
      for (const m of [loner, author]) {
        const who = await memory.identity.resolve({ guildId, identifier: m.name });
        expect(who.resolved, m.name).toBe(m.id);
      }
    } finally {
      await memory.close({ drain: false });
    }
    expect(failures).toEqual([]);
    const after = messageRows(path).filter((m) => m.guild_id === guildId);
    expect(after.map((r) => r.message_id)).toEqual(all.map((e) => e.messageId));
    expect(new Set(after.map((r) => r.status))).toEqual(new Set(['processed']));
    const facts = factRows(path).filter((f) => f.guild_id === guildId);
    for (let i = 0; i < N; i++)
      expect(facts.filter((f) => f.text === stampFact(authorOf(i).name, marker('obs', i)))).toHaveLength(1);
    expect(inspectSqlite(path)).toMatchObject({ ...CONSISTENT, facts: N });
  }

  it.each([
    { killAt: 1, killWhen: 'before' },
    { killAt: 1, killWhen: 'after' },
    { killAt: 7, killWhen: 'before' },
    { killAt: 7, killWhen: 'after' },
  ] as const)(
    'killed at row #$killAt ($killWhen the batch write): nothing of the batch is stored (one transaction); restart stores all once',
    async ({ killAt, killWhen }) => {
      const guildId = `96000000000000${killAt}${killWhen === 'before' ? 1 : 2}00`;
      const path = join(tmp.dir, `observer-${killAt}-${killWhen}.db`);
      const child = startChild('observer', { path, events: events(guildId), killAt, killWhen });
      await expectKilled(child);
      expect(messageRows(path).filter((m) => m.guild_id === guildId)).toHaveLength(0);
      await recoverAndCheck(path, guildId);
    },
    60_000,
  );

  it('killed from outside at an arbitrary moment: restart stores the rest once', async () => {
    const guildId = '970000000000000001';
    const path = join(tmp.dir, 'observer-external.db');
    const child = startChild('observer', { path, events: events(guildId), report: true, pauseMs: 2 });
    await child.waitFor((m) => m.event === 'receipt' && m.receipt?.messageId.endsWith('4') === true);
    child.kill();
    await expectKilled(child);
    await recoverAndCheck(path, guildId);
  }, 60_000);
});

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { purgeMember } from '@permafrost/core/internal';
import { indexTerms } from '@permafrost/core/store';
import {
  at,
  G1,
  makeFact,
  makeHistory,
  makeMessage,
  unitVector,
  vectorItem,
} from '@permafrost/store-conformance';
import { createSqliteStore } from '@permafrost/store-sqlite';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * Unique strings that exist nowhere but in the rows written for them. FTS5 leaves store each term
 * prefix-compressed against the previous one, so the keyword-indexed markers (facts and messages)
 * start with letters no other indexed term starts with: their bytes are stored whole and a
 * byte scan can see them.
 */
const MARKERS = {
  factText: 'jqfactmarkerzq',
  speakerFact: 'kqspeakermarkerzq',
  historyText: 'qxhistorymarkerzq',
  messageText: 'xqmessagemarkerzq',
  pendingText: 'yqpendingmarkerzq',
  digestText: 'qxdigestmarkerzq',
  aliasName: 'qxaliasmarkerzq',
  sourceSnippet: 'qxsnippetmarkerzq',
} as const;
const INDEXED = [MARKERS.factText, MARKERS.speakerFact, MARKERS.messageText, MARKERS.pendingText];
const KEPT = 'vqcarolkeptmarkerzq';

/** Analysed terms of the markers that the keyword indexes of the file hold. */
function indexedMarkers(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    const terms = new Set(INDEXED.flatMap((m) => indexTerms(m)));
    const held: string[] = [];
    for (const table of ['facts_fts', 'messages_fts']) {
      db.exec(
        `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${table}_vocab USING fts5vocab(main, ${table}, 'row')`,
      );
      for (const r of db.prepare(`SELECT term FROM temp.${table}_vocab`).all() as { term: string }[])
        if (terms.has(r.term)) held.push(r.term);
    }
    return held.sort();
  } finally {
    db.close();
  }
}

/** Every byte form a marker can take in the file: raw text and the analysed keyword term. */
function needles(marker: string): Buffer[] {
  return [...new Set([marker, ...indexTerms(marker)])].map((s) => Buffer.from(s, 'utf8'));
}

function filesContaining(path: string, marker: string): string[] {
  const hits: string[] = [];
  for (const suffix of ['', '-wal', '-shm']) {
    if (!existsSync(path + suffix)) continue;
    const bytes = readFileSync(path + suffix);
    if (needles(marker).some((n) => bytes.includes(n))) hits.push(`${marker} in ${suffix || 'db'}`);
  }
  return hits;
}

describe('a purge leaves no byte of the user in the SQLite files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'permafrost-purge-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('scrubs facts, history, messages, digests, aliases, sources and keyword indexes', async () => {
    const path = join(dir, 'purge.db');
    const s = createSqliteStore({ path });
    await s.setup();
    // Enough unrelated rows that the markers share pages, b-tree nodes and FTS segments with others.
    for (let batch = 0; batch < 20; batch++) {
      await s.transaction(async () => {
        const facts = Array.from({ length: 50 }, (_, i) =>
          makeFact({ subjectId: `u${i % 9}`, text: `filler fact ${batch} ${i} about hiking and chess` }),
        );
        await s.facts.insert(facts);
        await s.queue.enqueueMany(
          Array.from({ length: 50 }, (_, i) =>
            makeMessage({ authorId: `u${i % 9}`, content: `filler message ${batch} ${i} about concerts` }),
          ),
          1_000_000,
        );
      });
    }
    const aliceFact = makeFact({ subjectId: 'alice', text: `alice collects ${MARKERS.factText} stamps` });
    const spoken = makeFact({
      subjectId: 'bob',
      text: `bob once said ${MARKERS.speakerFact} loudly`,
      attribution: { type: 'third_party', speakerId: 'alice', speakerName: 'Alice', actorId: null },
    });
    const carolFact = makeFact({
      subjectId: 'carol',
      text: `carol bakes ${KEPT} bread`,
      sources: [
        {
          messageId: 'mq',
          channelId: 'c1',
          authorId: 'alice',
          authorName: 'Alice',
          snippet: `alice wrote ${MARKERS.sourceSnippet}`,
          url: '',
          role: 'supporting',
          createdAt: at(1),
        },
      ],
    });
    await s.facts.insert([aliceFact, spoken, carolFact]);
    await s.facts.appendHistory([makeHistory(aliceFact, { previousText: `was ${MARKERS.historyText}` })]);
    const done = makeMessage({
      authorId: 'alice',
      content: `hello ${MARKERS.messageText}`,
      status: 'processed',
    });
    await s.queue.enqueueMany(
      [done, makeMessage({ authorId: 'alice', content: `later ${MARKERS.pendingText}` })],
      1_000_000,
    );
    // Searching brings the lazily built message keyword index up to date, so it holds the markers too.
    expect(await s.conversation.searchText(G1, indexTerms('hello later'), 5)).toHaveLength(2);
    await s.vectors.upsert([
      vectorItem(aliceFact.id, unitVector(1, 8), { subjectId: 'alice' }),
      vectorItem(done.messageId, unitVector(2, 8), { kind: 'message', subjectId: 'alice' }),
    ]);
    await s.digests.putDigest({
      guildId: G1,
      subjectId: 'alice',
      text: `profile ${MARKERS.digestText}`,
      generatedAt: at(2),
      sourceFactCount: 2,
      channels: null,
    });
    await s.aliases.upsert({
      guildId: G1,
      alias: MARKERS.aliasName,
      userId: 'alice',
      source: 'real_name',
      weight: 0.85,
      updatedAt: at(3),
    });
    await s.close();

    // Before the purge every marker is on disk, and the keyword indexes hold the indexed ones.
    for (const marker of Object.values(MARKERS)) expect(filesContaining(path, marker)).not.toEqual([]);
    expect(indexedMarkers(path)).toEqual(INDEXED.flatMap((m) => indexTerms(m)).sort());

    const store = createSqliteStore({ path });
    const report = await purgeMember(store, { guildId: G1, userId: 'alice', dryRun: false });
    expect(report).toMatchObject({ facts: 2, messages: 2, digests: 1, aliases: 1, sourcesStripped: 1 });
    // The WAL is already truncated while the store is still open.
    const wal = readFileSync(`${path}-wal`);
    expect(wal.length).toBe(0);
    await store.close();

    const leaks = Object.values(MARKERS).flatMap((m) => filesContaining(path, m));
    expect(leaks).toEqual([]);
    expect(indexedMarkers(path)).toEqual([]);
    expect(filesContaining(path, KEPT)).not.toEqual([]);
    const reopened = createSqliteStore({ path });
    expect((await reopened.facts.get(G1, [carolFact.id]))[0]?.sources).toEqual([]);
    await reopened.close();
  });
});

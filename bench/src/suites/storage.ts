import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHashingEmbedder, type MemoryStore, type StoredMessage } from '@permafrost/core';
import { queryTerms } from '@permafrost/core/store';
import { createSqliteStore } from '@permafrost/store-sqlite';
import { GUILD, makeFacts, makeQueries, userId } from '../corpus.js';
import { type LatencySummary, summarize, timeEach } from '../stats.js';

export interface StorageBenchOptions {
  /** Facts in the one guild, one full run per size. */
  readonly sizes: readonly number[];
  /** Facts per insert transaction (default 1000). */
  readonly batch?: number;
  /** Timed queries per measurement (default 200, after 10 warm-up queries). */
  readonly queries?: number;
  /** Results per query (default 32, the recall pool). */
  readonly limit?: number;
  /** Single-message enqueue calls timed per size (default 10,000). */
  readonly messages?: number;
}

export interface StorageBenchResult {
  readonly size: number;
  readonly insert: { readonly facts: number; readonly seconds: number; readonly factsPerSecond: number };
  readonly knnGuild: LatencySummary;
  readonly knnScoped: LatencySummary;
  readonly keywordGuild: LatencySummary;
  readonly keywordScoped: LatencySummary;
  readonly enqueue: LatencySummary & { readonly messagesPerSecond: number };
  readonly enqueueBatched: { readonly batch: number; readonly messagesPerSecond: number };
  readonly fileBytes: number;
}

export const STORAGE_DIMENSIONS = 256;
const ENQUEUE_BATCH = 100;

function message(i: number): StoredMessage {
  const authorId = userId(i % 200);
  return {
    messageId: String(1300000000000000000n + BigInt(i)),
    guildId: GUILD,
    channelId: String(1200000000000000000n + BigInt(i % 5)),
    authorId,
    authorUsername: authorId,
    authorDisplayName: authorId,
    authorIsBot: false,
    content: `message ${i}: anyone up for board games or trail running this weekend?`,
    contentTruncated: false,
    rawStored: true,
    createdAt: new Date(Date.UTC(2026, 5, 1) + i * 1000),
    mentionIds: [],
    replyToMessageId: null,
    threadParentId: null,
    edited: false,
    metadata: null,
    kind: 'chat',
    subjectKey: authorId,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: null,
    leaseOwner: null,
    leaseUntil: null,
    processedAt: null,
  };
}

async function insertAll(store: MemoryStore, size: number, batch: number) {
  const embedder = createHashingEmbedder({ dimensions: STORAGE_DIMENSIONS });
  const facts = makeFacts(size);
  const vectors = await embedder.embed(facts.map((f) => f.text));
  const t = performance.now();
  for (let i = 0; i < facts.length; i += batch) {
    const chunk = facts.slice(i, i + batch);
    await store.transaction(async () => {
      await store.facts.insert(chunk);
      await store.vectors.upsert(
        chunk.map((f, j) => ({
          kind: 'fact' as const,
          id: f.id,
          guildId: f.guildId,
          subjectId: f.subjectId,
          active: true,
          vector: vectors[i + j] as Float32Array,
        })),
      );
    });
  }
  const seconds = (performance.now() - t) / 1000;
  return {
    facts: size,
    seconds: Math.round(seconds * 1000) / 1000,
    factsPerSecond: Math.round(size / seconds),
  };
}

/**
 * SQLite storage throughput and latency for one guild of `size` facts with 256-dim hashing vectors:
 * batched inserts (fact + vector + keyword row per fact), exact KNN and BM25 keyword search
 * guild-wide and scoped to two members plus server facts, and single-message enqueue (observe's write).
 */
export async function runStorageBench(options: StorageBenchOptions): Promise<StorageBenchResult[]> {
  const batch = options.batch ?? 1000;
  const limit = options.limit ?? 32;
  const embedder = createHashingEmbedder({ dimensions: STORAGE_DIMENSIONS });
  const queries = makeQueries((options.queries ?? 200) + 10);
  const queryVectors = await embedder.embed(queries.map((q) => q.text));
  const timed = queries.map((q, i) => ({
    ...q,
    vector: queryVectors[i] as Float32Array,
    terms: queryTerms(q.text),
  }));
  const results: StorageBenchResult[] = [];
  for (const size of options.sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'permafrost-bench-'));
    const path = join(dir, 'bench.db');
    const store = createSqliteStore({ path });
    try {
      await store.setup();
      const insert = await insertAll(store, size, batch);
      const measure = async (fn: (q: (typeof timed)[number]) => Promise<unknown>) => {
        await timeEach(timed.slice(0, 10), fn);
        return summarize(await timeEach(timed.slice(10), fn));
      };
      const knnGuild = await measure((q) =>
        store.vectors.search({ kind: 'fact', guildId: GUILD, vector: q.vector, limit }),
      );
      const knnScoped = await measure((q) =>
        store.vectors.search({
          kind: 'fact',
          guildId: GUILD,
          vector: q.vector,
          limit,
          subjectIds: q.subjects,
          includeServer: true,
        }),
      );
      const keywordGuild = await measure((q) => store.facts.searchText({ guildId: GUILD }, q.terms, limit));
      const keywordScoped = await measure((q) =>
        store.facts.searchText(
          { guildId: GUILD, subjectIds: q.subjects, includeServer: true },
          q.terms,
          limit,
        ),
      );
      const messages = Array.from({ length: options.messages ?? 10_000 }, (_, i) => message(i));
      const t = performance.now();
      const samples = await timeEach(messages, (m) => store.queue.enqueue(m, 1_000_000));
      const enqueueSeconds = (performance.now() - t) / 1000;
      const batched = messages.map((m) => ({ ...m, messageId: `${m.messageId}_b` }));
      const tb = performance.now();
      for (let i = 0; i < batched.length; i += ENQUEUE_BATCH)
        await store.queue.enqueueMany(batched.slice(i, i + ENQUEUE_BATCH), 1_000_000);
      const batchedSeconds = (performance.now() - tb) / 1000;
      await store.close();
      results.push({
        size,
        insert,
        knnGuild,
        knnScoped,
        keywordGuild,
        keywordScoped,
        enqueue: { ...summarize(samples), messagesPerSecond: Math.round(messages.length / enqueueSeconds) },
        enqueueBatched: {
          batch: ENQUEUE_BATCH,
          messagesPerSecond: Math.round(batched.length / batchedSeconds),
        },
        fileBytes: statSync(path).size,
      });
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return results;
}

import type { Fact, FactHistoryEntry, Link, MemoryStore, StoredMessage } from '@permafrost/core';
import type { VectorItem } from '@permafrost/core/store';
import { makeFact as baseFact } from '@permafrost/core/testing';

/** Fixed base instant for every fixture; tests move time explicitly. */
export const T0 = new Date('2026-08-24T12:00:00.000Z');
export const at = (seconds: number): Date => new Date(T0.getTime() + seconds * 1000);
export const days = (n: number): Date => at(n * 86_400);

export const G1 = 'guild-1';
export const G2 = 'guild-2';

let seq = 0;
/** Ids sort in creation order, like ULIDs. */
export function factId(n?: number): string {
  const v = n ?? ++seq;
  return `fct_${String(v).padStart(8, '0')}`;
}

/** A fact of G1 about `u1` (see `makeFact` in @permafrost/core/testing for the other defaults). */
export function makeFact(overrides: Partial<Fact> = {}): Fact {
  return baseFact({ id: factId(), guildId: G1, category: 'interests', createdAt: T0, ...overrides });
}

export function makeHistory(fact: Fact, overrides: Partial<FactHistoryEntry> = {}): FactHistoryEntry {
  return {
    guildId: fact.guildId,
    factId: fact.id,
    at: fact.createdAt,
    kind: 'created',
    detail: 'test',
    previousText: null,
    actorId: null,
    version: 1,
    ...overrides,
  };
}

export function makeLink(fact: Fact, overrides: Partial<Link> = {}): Link {
  return {
    guildId: fact.guildId,
    factId: fact.id,
    nodeType: 'user',
    nodeId: fact.subjectId ?? 'server',
    kind: 'subject_of',
    createdAt: fact.createdAt,
    ...overrides,
  };
}

let msgSeq = 0;
export function makeMessage(overrides: Partial<StoredMessage> = {}): StoredMessage {
  const n = ++msgSeq;
  const authorId = overrides.authorId ?? 'u1';
  return {
    messageId: `m${String(n).padStart(8, '0')}`,
    guildId: G1,
    channelId: 'c1',
    authorId,
    authorUsername: 'alice',
    authorDisplayName: 'Alice',
    authorIsBot: false,
    content: `message number ${n} about things`,
    contentTruncated: false,
    rawStored: true,
    createdAt: at(n),
    mentionIds: [],
    replyToMessageId: null,
    threadParentId: null,
    edited: false,
    metadata: null,
    kind: 'chat',
    subjectKey: overrides.subjectKey ?? authorId,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: null,
    leaseOwner: null,
    leaseUntil: null,
    processedAt: null,
    ...overrides,
  };
}

/** A deterministic pseudo-random unit vector (mulberry32). */
export function unitVector(seed: number, dims: number): Float32Array {
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const v = new Float32Array(dims);
  let norm = 0;
  for (let i = 0; i < dims; i++) {
    const x = rand() * 2 - 1;
    v[i] = x;
    norm += x * x;
  }
  for (let i = 0; i < dims; i++) v[i] = (v[i] as number) / Math.sqrt(norm);
  return v;
}

export function vectorItem(
  id: string,
  vector: Float32Array,
  overrides: Partial<VectorItem> = {},
): VectorItem {
  return { kind: 'fact', id, guildId: G1, subjectId: 'u1', active: true, vector, ...overrides };
}

export interface ConformanceOptions {
  /** Shown in test names. */
  readonly name: string;
  /** A fresh, empty, set-up store for each test. */
  readonly create: () => Promise<MemoryStore>;
  /** Called after each test (default: store.close()). */
  readonly destroy?: (store: MemoryStore) => Promise<void>;
}

/** Runs fn with a fresh store and always disposes it. */
export async function withStore<T>(
  options: ConformanceOptions,
  fn: (store: MemoryStore) => Promise<T>,
): Promise<T> {
  const store = await options.create();
  try {
    return await fn(store);
  } finally {
    await (options.destroy ? options.destroy(store) : store.close());
  }
}

/** Resolves with the MemoryError code a promise rejects with (or fails if it resolves). */
export async function errorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as { code?: string }).code ?? 'no-code';
  }
  return 'resolved';
}

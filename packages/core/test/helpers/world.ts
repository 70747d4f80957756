import { sameChannelPolicy } from '../../src/access/same-channel-policy.js';
import type { AccessDeps } from '../../src/access/visibility.js';
import { createInMemoryStore } from '../../src/adapters/in-memory/in-memory-store.js';
import { parseConfig } from '../../src/config/parse-config.js';
import type { MemoryConfig } from '../../src/config/schema.js';
import type { EdgeKind } from '../../src/model/enums.js';
import type { Fact } from '../../src/model/fact.js';
import type { AudiencePolicy } from '../../src/ports/audience-policy.js';
import type { Embedder } from '../../src/ports/embedder.js';
import type { MemoryStore } from '../../src/ports/memory-store.js';
import type { Reranker } from '../../src/ports/reranker.js';
import type { RecallDeps } from '../../src/recall/recall-types.js';
import { createFakeEmbedder } from '../../src/testing/fake-embedder.js';
import { FixedClock } from '../../src/testing/fixed-clock.js';
import { makeFact as baseFact } from '../../src/testing/make-fact.js';

export const G = 'g1';
export const G2 = 'g2';
export const T0 = new Date('2026-08-24T12:00:00.000Z');
export const DAY = 86_400_000;

let seq = 0;
export function nextId(prefix = 'fct'): string {
  seq++;
  return `${prefix}_${String(seq).padStart(8, '0')}`;
}

export function makeFact(overrides: Partial<Fact> & { text: string }): Fact {
  const subjectId = overrides.subjectId === undefined ? 'u1' : overrides.subjectId;
  return baseFact({
    id: nextId(),
    guildId: G,
    createdAt: T0,
    attribution: { type: 'self', speakerId: subjectId, speakerName: null, actorId: null },
    ...overrides,
  });
}

export interface SeedOptions {
  /** Extra links beyond subject_of: [nodeType, nodeId, kind]. */
  readonly links?: readonly (readonly ['user' | 'entity', string, EdgeKind])[];
}

/** Commits facts the way the ingest commit does: fact, vector, subject link (+ extra links). */
export async function seed(
  store: MemoryStore,
  embedder: Embedder,
  facts: readonly Fact[],
  options: SeedOptions = {},
): Promise<void> {
  await store.facts.insert(facts);
  const vectors = await embedder.embed(facts.map((f) => f.text));
  await store.vectors.upsert(
    facts.map((f, i) => ({
      kind: 'fact' as const,
      id: f.id,
      guildId: f.guildId,
      subjectId: f.subjectId,
      active: f.supersededById === null && f.validUntil === null,
      vector: vectors[i] as Float32Array,
    })),
  );
  await store.graph.addLinks(
    facts.flatMap((f) => [
      ...(f.subjectId === null
        ? []
        : [
            {
              guildId: f.guildId,
              factId: f.id,
              nodeType: 'user' as const,
              nodeId: f.subjectId,
              kind: 'subject_of' as const,
              createdAt: f.createdAt,
            },
          ]),
      ...(options.links ?? []).map(([nodeType, nodeId, kind]) => ({
        guildId: f.guildId,
        factId: f.id,
        nodeType,
        nodeId,
        kind,
        createdAt: f.createdAt,
      })),
    ]),
  );
}

/** Unit tests of recall read guild-wide unless they test audiences (`access` overrides). */
export function config(
  retrieval: Record<string, unknown> = {},
  access: Record<string, unknown> = { requireAudience: false },
): MemoryConfig {
  return parseConfig({ storage: 'memory', llm: null, retrieval, access } as Parameters<
    typeof parseConfig
  >[0]);
}

export interface World {
  readonly store: MemoryStore;
  readonly embedder: ReturnType<typeof createFakeEmbedder>;
  readonly clock: FixedClock;
  readonly bots: Set<string>;
  /** Guild-wide reads (no audience needed), for tests that are not about audiences. */
  readonly access: AccessDeps;
  deps(
    retrieval?: Record<string, unknown>,
    extra?: { reranker?: Reranker | null; access?: Record<string, unknown>; policy?: AudiencePolicy },
  ): RecallDeps;
}

export function world(options: { synonyms?: readonly (readonly string[])[] } = {}): World {
  const store = createInMemoryStore();
  const embedder = createFakeEmbedder({
    dimensions: 128,
    ...(options.synonyms ? { synonyms: options.synonyms } : {}),
  });
  const clock = new FixedClock(new Date(T0.getTime() + DAY));
  const bots = new Set<string>();
  return {
    store,
    embedder,
    clock,
    bots,
    access: { policy: sameChannelPolicy([]), config: config().access },
    deps(retrieval = {}, extra = {}) {
      const c = config(retrieval, extra.access);
      return {
        access: {
          policy: extra.policy ?? sameChannelPolicy(c.access.publicChannelIds),
          config: c.access,
        },
        store,
        embedder,
        clock,
        retrieval: c.retrieval,
        lifecycle: c.lifecycle,
        reranker: extra.reranker ?? null,
        isBot: (id) => bots.has(id),
      };
    },
  };
}

/** `target` with `method` (or a port) replaced by `impl`; its other methods stay its own, bound (private fields work). */
export function withMethod<T extends object, K extends keyof T>(target: T, method: K, impl: T[K]): T {
  return new Proxy(target, {
    get(t, p, r) {
      if (p === method) return impl;
      const v = Reflect.get(t, p, r);
      return typeof v === 'function' ? v.bind(t) : v;
    },
  });
}

/** Wraps a store so one port method fails. */
export function failing<T extends object>(target: T, method: keyof T, error = new Error('boom')): T {
  return withMethod(target, method, (async () => Promise.reject(error)) as T[keyof T]);
}

/** A store whose `role` port is replaced. */
export function withPort<K extends keyof MemoryStore>(
  store: MemoryStore,
  role: K,
  port: MemoryStore[K],
): MemoryStore {
  return withMethod(store, role, port);
}

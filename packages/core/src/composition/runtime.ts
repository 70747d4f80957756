import { sameChannelPolicy } from '../access/same-channel-policy.js';
import type { AccessDeps } from '../access/visibility.js';
import { cacheEmbedder } from '../adapters/embedding/cached-embedder.js';
import { createInMemoryStore } from '../adapters/in-memory/in-memory-store.js';
import { type CallOutcomes, guardEmbedder } from '../adapters/llm/call-guard.js';
import type { PricedMeter } from '../adapters/llm/index.js';
import { systemClock } from '../adapters/system/system-clock.js';
import { createUlidIdGen } from '../adapters/system/ulid-id-gen.js';
import type { MemoryConfig } from '../config/schema.js';
import { ErrorCode, MemoryError } from '../errors/index.js';
import type { ChatLLM } from '../ports/chat-llm.js';
import type { Clock, IdGen } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { Reranker } from '../ports/reranker.js';
import { ANALYZER_ID } from '../text/analyze.js';
import { type GuardedStore, guardStore } from './guarded-store.js';
import { resolveEmbedder, resolveModels } from './models.js';
import type { MemoryOverrides } from './overrides.js';
import { resolveStoreFactory } from './store-registry.js';

export interface Runtime {
  readonly config: MemoryConfig;
  readonly clock: Clock;
  readonly ids: IdGen;
  readonly logger: Logger | undefined;
  readonly store: GuardedStore;
  readonly embedder: Embedder;
  readonly llm: ChatLLM | null;
  readonly smallLlm: ChatLLM | null;
  readonly reranker: Reranker | null;
  /** The audience policy (override, else core's same-channel policy) with the `access` settings. */
  readonly access: AccessDeps;
  readonly meter: PricedMeter;
  /** Consecutive failed model calls (health reports an LLM that keeps failing as degraded). */
  readonly llmOutcomes: () => CallOutcomes;
}

const META_EMBEDDER = 'embedder.id';
const META_ANALYZER = 'analyzer.id';

/** Builds the store named by `storage` (or the override) with the queue/vector role overrides applied. */
async function buildStore(
  config: MemoryConfig,
  overrides: MemoryOverrides,
  logger: Logger | undefined,
): Promise<MemoryStore> {
  let store: MemoryStore;
  if (overrides.store) store = overrides.store;
  else if (config.storage.scheme === 'memory') store = createInMemoryStore();
  else {
    const factory = await resolveStoreFactory(config.storage.scheme);
    store = await factory(config.storage.url, logger ? { logger } : {});
  }
  if (!overrides.queue && !overrides.vectors) return store;
  return {
    ...store,
    queue: overrides.queue ?? store.queue,
    vectors: overrides.vectors ?? store.vectors,
    setup: () => store.setup(),
    ping: () => store.ping(),
    close: () => store.close(),
    transaction: (fn) => store.transaction(fn),
  };
}

/** Store metadata on a store opened read-only (inspection tools) is not written; other failures stand. */
async function setMetaUnlessReadOnly(store: MemoryStore, key: string, value: string): Promise<void> {
  try {
    await store.meta.setMeta(key, value);
  } catch (error) {
    if (!MemoryError.is(error, ErrorCode.STORE_READ_ONLY)) throw error;
  }
}

/**
 * Checks the embedder against stored vectors: a different vector length, or a different embedder
 * id while vectors exist, fails with DIMENSION_MISMATCH (run `permafrost reindex`).
 */
export async function checkEmbedder(store: MemoryStore, embedder: Embedder): Promise<void> {
  const stored = await store.vectors.dimensions();
  let dims = embedder.dimensions;
  if (dims === undefined) dims = (await embedder.embed(['dimension probe']))[0]?.length;
  if (stored !== null && dims !== undefined && stored !== dims) {
    throw new MemoryError(
      ErrorCode.DIMENSION_MISMATCH,
      `stored vectors have ${stored} dimensions but the embedder produces ${dims}; run \`permafrost reindex\``,
    );
  }
  const recorded = await store.meta.getMeta(META_EMBEDDER);
  if (recorded !== null && recorded !== embedder.id && stored !== null) {
    throw new MemoryError(
      ErrorCode.DIMENSION_MISMATCH,
      `stored vectors were made by embedder "${recorded}", not "${embedder.id}"; run \`permafrost reindex\``,
    );
  }
  if (recorded === embedder.id) return;
  await setMetaUnlessReadOnly(store, META_EMBEDDER, embedder.id);
}

/**
 * Records which analyzer (`ANALYZER_ID`: tokens, stop words, irregular forms, stemmer) wrote the
 * store's keyword terms. A store that has none recorded was written by the same analysis (the
 * stemmer package stems every word as the earlier built-in stemmer did), so it is recorded as is.
 * A different recorded id means stored terms were analysed differently: it is kept, and the logger
 * gets `store.analyzer_changed` on every start, until a rebuild of the terms records the new id.
 */
export async function recordAnalyzer(store: MemoryStore, logger: Logger | undefined): Promise<void> {
  const recorded = await store.meta.getMeta(META_ANALYZER);
  if (recorded === ANALYZER_ID) return;
  if (recorded !== null) {
    logger?.({
      level: 'warn',
      event: 'store.analyzer_changed',
      data: { recorded, current: ANALYZER_ID },
    });
    return;
  }
  await setMetaUnlessReadOnly(store, META_ANALYZER, ANALYZER_ID);
}

/** Builds every adapter; `lifetime` ends when the memory closes (model calls in flight are aborted). */
export async function buildRuntime(
  config: MemoryConfig,
  overrides: MemoryOverrides,
  lifetime?: AbortSignal,
): Promise<Runtime> {
  const logger = overrides.logger;
  const clock = overrides.clock ?? systemClock;
  const ids = overrides.idGen ?? createUlidIdGen(clock);
  const store = guardStore(await buildStore(config, overrides, logger), logger);
  await store.setup();
  await recordAnalyzer(store, logger);
  const resolved = overrides.embedder ?? (await resolveEmbedder(config, overrides));
  const baseEmbedder = lifetime ? guardEmbedder(resolved, lifetime) : resolved;
  const embedder =
    config.embeddingCacheBytes > 0
      ? cacheEmbedder(baseEmbedder, { maxBytes: config.embeddingCacheBytes })
      : baseEmbedder;
  if (overrides.embedderCheck !== 'skip') await checkEmbedder(store, embedder);
  const { llm, smallLlm, meter, outcomes } = await resolveModels(config, overrides, lifetime);
  return {
    config,
    clock,
    ids,
    logger,
    store,
    embedder,
    llm,
    smallLlm,
    reranker: overrides.reranker ?? null,
    access: {
      policy: overrides.audiencePolicy ?? sameChannelPolicy(config.access.publicChannelIds),
      config: config.access,
      ...(logger ? { logger } : {}),
    },
    meter,
    llmOutcomes: outcomes,
  };
}

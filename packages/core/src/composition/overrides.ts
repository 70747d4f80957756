import type { AudiencePolicy } from '../ports/audience-policy.js';
import type { ChatLLM } from '../ports/chat-llm.js';
import type { Clock, IdGen } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { IngestQueue } from '../ports/ingest-queue.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { Reranker } from '../ports/reranker.js';
import type { VectorIndex } from '../ports/vector-index.js';

/**
 * Adapters that replace what the configuration would build. `null` switches a capability off:
 * `llm: null` disables extraction, `smallLlm: null` disables model reconcile and digests,
 * `reranker: null` disables reranking.
 */
export interface MemoryOverrides {
  readonly store?: MemoryStore;
  /** Replaces the store's queue role (e.g. a separate queue backend). */
  readonly queue?: IngestQueue;
  /** Replaces the store's vector role. */
  readonly vectors?: VectorIndex;
  readonly embedder?: Embedder;
  readonly reranker?: Reranker | null;
  /**
   * Who may see what was learned where (default: core's same-channel policy with
   * `access.publicChannelIds`; `@permafrost/discord` supplies one from Discord permissions).
   */
  readonly audiencePolicy?: AudiencePolicy;
  readonly llm?: ChatLLM | null;
  readonly smallLlm?: ChatLLM | null;
  readonly clock?: Clock;
  readonly idGen?: IdGen;
  readonly logger?: Logger;
  /** Environment used for `$VAR` expansion in URLs (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Owner id of this process's leases and reply claims (default: random per process). Active
   * modes are owned by `conversation.modesOwner` instead, so they survive restarts.
   */
  readonly instanceId?: string;
  /**
   * `enforce` (default): starting fails with DIMENSION_MISMATCH when the embedder differs from the
   * stored vectors. `skip`: only for re-indexing tools that replace every vector.
   */
  readonly embedderCheck?: 'enforce' | 'skip';
}

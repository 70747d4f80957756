import type { AccessDeps } from '../access/visibility.js';
import type { MemoryConfig } from '../config/schema.js';
import type { ChannelName, RecallWarning } from '../model/enums.js';
import type { Fact } from '../model/fact.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { Reranker } from '../ports/reranker.js';
import type { RecallQueryInput } from './recall-query.js';
import type { RecallSession } from './recall-session.js';

/** Per-signal evidence behind a fused score, each in [0, 1]. */
export interface ScoreComponents {
  /** Cosine similarity of the query and fact vectors (0 when the vector channel missed it). */
  readonly semantic: number;
  /** Keyword BM25, divided by the best keyword score of this query. */
  readonly lexical: number;
  /** 1 when the fact concerns a member or entity named in the query (or the entity hint). */
  readonly entity: number;
  /** min(1, ln(1 + strength) / ln 11) × retention. */
  readonly strength: number;
  /** Reciprocal-rank consensus over every channel, divided by the best of this query. */
  readonly rrf: number;
  /** 1 when the fact was observed inside a date window the query names, decaying outside it. */
  readonly temporal: number;
  /**
   * Best fused score among facts said in the same conversation (same channel, sources within
   * `neighborMaxGapMinutes`); mixed in with `factContextWeight` (0 when smoothing is off).
   */
  readonly context: number;
}

export interface ScoredFact {
  readonly fact: Fact;
  /**
   * Weighted mean of the applicable components, then lifted towards a better fact of the same
   * conversation: fused + w / (1 + w) × max(0, context − fused), w = factContextWeight; in [0, 1].
   */
  readonly score: number;
  readonly components: ScoreComponents;
  readonly matchedChannels: readonly ChannelName[];
  /** Graph-hop route (`type:id` node keys) when the graph channel found the fact. */
  readonly hopPath: readonly string[];
  /** Score from the optional reranker, null when it did not run on this fact. */
  readonly rerankScore: number | null;
}

export interface RecallResult {
  readonly facts: readonly ScoredFact[];
  readonly warnings: readonly RecallWarning[];
  readonly degradedChannels: readonly ChannelName[];
}

/** What the recall service needs; the facade builds it from the configuration and overrides. */
export interface RecallDeps {
  readonly store: MemoryStore;
  readonly embedder: Embedder;
  readonly clock: Clock;
  readonly retrieval: MemoryConfig['retrieval'];
  readonly lifecycle: MemoryConfig['lifecycle'];
  readonly reranker: Reranker | null;
  /** Audience policy and the `access` configuration: what each read may show. */
  readonly access: AccessDeps;
  /** Registered bot accounts are never subjects. */
  isBot(userId: string): boolean;
  readonly logger?: Logger;
}

export interface RecallService {
  /**
   * Zero-LLM hybrid recall. Never throws: failures become warnings and degraded channels. Recalls
   * of one request (same guild and moment) can share reads through one `session`.
   */
  recall(query: RecallQueryInput, session?: RecallSession): Promise<RecallResult>;
}

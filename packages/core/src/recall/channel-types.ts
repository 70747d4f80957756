import type { ChannelName } from '../model/enums.js';
import type { Fact } from '../model/fact.js';
import type { NodeRef } from '../model/graph.js';
import type { FactFilter, FactValidity } from '../ports/fact-store.js';
import type { RecallSession } from './recall-session.js';
import type { RecallDeps } from './recall-types.js';

/** One fact found by a channel, best first within its list. */
export interface ChannelHit {
  readonly factId: string;
  /** Channel-native score (cosine, BM25, …); only vector and keyword scores feed components. */
  readonly score: number;
  /** The fact itself when the channel already read it (saves a fetch). */
  readonly fact?: Fact;
  readonly hopPath?: readonly string[];
}

export interface ChannelList {
  readonly channel: ChannelName;
  readonly hits: readonly ChannelHit[];
  /** Keyword lists: the score a full match of the query would get, when the store reports it. */
  readonly fullMatchScore?: number;
}

/** Members and entities a query names (or a hint points at): their facts get the entity component. */
export interface NamedTargets {
  readonly userIds: ReadonlySet<string>;
  readonly entitySlugs: ReadonlySet<string>;
}

/** Everything a channel needs, computed once per query. */
export interface ChannelContext {
  readonly deps: RecallDeps;
  /** Reads shared with the other recalls of the request. */
  readonly session: RecallSession;
  readonly guildId: string;
  readonly text: string | null;
  /** Scope and validity every fact read uses (subject scope never includes server facts implicitly). */
  readonly filter: FactFilter;
  readonly validity: FactValidity;
  /** Subject user ids of the query (empty for guild and server scope). */
  readonly subjectIds: readonly string[];
  /**
   * User nodes of the subjects plus the person entities linked to them (twins): a read the
   * channels that need it await, so the others start without waiting for it.
   */
  readonly subjectNodes: Promise<readonly NodeRef[]>;
  readonly pairs: readonly (readonly [string, string])[];
  readonly limit: number;
  readonly maxPerSubject: number;
}

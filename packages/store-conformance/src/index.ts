import { describe } from 'vitest';
import type { ConformanceOptions } from './fixtures.js';
import { aliasSuite } from './suites/aliases.js';
import { conversationSuite } from './suites/conversation.js';
import { factQuerySuite } from './suites/fact-queries.js';
import { factSearchSuite } from './suites/fact-search.js';
import { factSuite } from './suites/facts.js';
import { forgettingSuite } from './suites/forgetting.js';
import { governanceSuite } from './suites/governance.js';
import { graphSuite } from './suites/graph.js';
import { graphWritesSuite } from './suites/graph-writes.js';
import { guildImportSuite } from './suites/guild-import.js';
import { memberReadsSuite } from './suites/member-reads.js';
import { nulTextSuite } from './suites/nul-text.js';
import { purgeSuite } from './suites/purge.js';
import { queueSuite } from './suites/queue.js';
import { queueAdmissionSuite } from './suites/queue-admission.js';
import { queueCompletionSuite } from './suites/queue-completion.js';
import { reactionSuite } from './suites/reactions.js';
import { retentionSuite } from './suites/retention.js';
import { transactionSuite } from './suites/transactions.js';
import { vectorSuite } from './suites/vectors.js';

export type { ConformanceOptions } from './fixtures.js';
export {
  at,
  days,
  G1,
  G2,
  makeFact,
  makeHistory,
  makeLink,
  makeMessage,
  T0,
  unitVector,
  vectorItem,
} from './fixtures.js';

/**
 * Facts, aliases, graph, governance (consent, digests; purge and export/import planned by core and
 * applied by the store), conversation (with core's retention), reactions and transactions.
 */
export function describeStoreConformance(options: ConformanceOptions): void {
  describe(`${options.name} store conformance`, () => {
    factSuite(options);
    factQuerySuite(options);
    factSearchSuite(options);
    aliasSuite(options);
    graphSuite(options);
    graphWritesSuite(options);
    governanceSuite(options);
    memberReadsSuite(options);
    purgeSuite(options);
    guildImportSuite(options);
    forgettingSuite(options);
    conversationSuite(options);
    reactionSuite(options);
    retentionSuite(options);
    transactionSuite(options);
    nulTextSuite(options);
  });
}

/**
 * The message queue: idempotent enqueue (held back until consent is granted), due keys, leases,
 * completion (held back until the batch's writes landed), retries and dead letters.
 */
export function describeQueueConformance(options: ConformanceOptions): void {
  describe(`${options.name} queue conformance`, () => {
    queueSuite(options);
    queueAdmissionSuite(options);
    queueCompletionSuite(options);
  });
}

/** Vector search: exact KNN without recency caps, scopes, activity and dimensions. */
export function describeVectorConformance(options: ConformanceOptions): void {
  describe(`${options.name} vector conformance`, () => vectorSuite(options));
}

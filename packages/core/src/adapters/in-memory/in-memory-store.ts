import type { MemoryStore, StoreCapabilities } from '../../ports/memory-store.js';
import { conversationRoles, governanceRoles } from '../shared/store-roles.js';
import { InMemoryAliasStore } from './in-memory-alias-store.js';
import { InMemoryConversationStore } from './in-memory-conversation-store.js';
import { InMemoryFactStore } from './in-memory-fact-store.js';
import { InMemoryGovernanceStore } from './in-memory-governance-store.js';
import { InMemoryGraphStore } from './in-memory-graph-store.js';
import { InMemoryIngestQueue } from './in-memory-queue.js';
import { InMemoryReactionStore } from './in-memory-reaction-store.js';
import { InMemoryVectorIndex } from './in-memory-vector-index.js';
import { MemoryState } from './state.js';

export const IN_MEMORY_CAPABILITIES: StoreCapabilities = {
  transactions: 'atomic',
  nativeVectorSearch: false,
  multiProcess: false,
  physicalPurge: true,
  durable: false,
};

/**
 * The reference backend: every port in plain maps, atomic transactions by undo log. It defines the
 * behaviour the conformance suite checks; use it for tests and small single-process bots.
 */
export function createInMemoryStore(): MemoryStore {
  const state = new MemoryState();
  return {
    name: 'memory',
    capabilities: IN_MEMORY_CAPABILITIES,
    facts: new InMemoryFactStore(state),
    aliases: new InMemoryAliasStore(state),
    graph: new InMemoryGraphStore(state),
    ...governanceRoles(new InMemoryGovernanceStore(state)),
    queue: new InMemoryIngestQueue(state),
    vectors: new InMemoryVectorIndex(state),
    ...conversationRoles(new InMemoryConversationStore(state)),
    reactions: new InMemoryReactionStore(state),
    setup: async () => {
      state.closed = false;
    },
    ping: async () => {},
    transaction: (fn) => state.transaction(fn),
    close: async () => {
      state.closed = true;
    },
  };
}

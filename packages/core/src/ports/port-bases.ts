// The bases stores extend (see record-bases.ts, governance-bases.ts, message-bases.ts).

export {
  BudgetStoreBase,
  ConsentStoreBase,
  CursorStoreBase,
  DigestStoreBase,
  ErasureLogBase,
  GovernanceRolesBase,
  GuildAdminStoreBase,
  MetaStoreBase,
} from './governance-bases.js';
export {
  ActiveModeStoreBase,
  ConversationRolesBase,
  ConversationStoreBase,
  IngestQueueBase,
  ReactionStoreBase,
  ReplyClaimStoreBase,
  VectorIndexBase,
} from './message-bases.js';
export { AliasStoreBase, FactStoreBase, GraphStoreBase } from './record-bases.js';

// '@permafrost/core/internal': building blocks the first-party packages (CLI, stores, Discord
// integration, benchmarks, tests) share with core. No stability promise: names here may change in
// any release. Applications use '@permafrost/core'; store authors '@permafrost/core/store'.
export { guardChatModel } from './adapters/llm/call-guard.js';
export { getStoreFactory, resolveStoreFactory } from './composition/store-registry.js';
export { sqlitePath } from './config/url-specs.js';
export { errorHints } from './errors/error-codes.js';
export { importSnapshot } from './governance/guild-import.js';
export { purgeMember } from './governance/purge.js';
export { normalizeAlias } from './identity/aliases.js';
export { memberSharesOf } from './ingest/member-rate.js';
export { pruneConversation } from './lifecycle/conversation-retention.js';
export { FORGOTTEN_FACT_TEXT } from './lifecycle/forget-messages.js';
export { cosine, dot } from './math/vector-math.js';
export { guildExportV1Schema, upgradeExport } from './model/admin.js';
export { messageEventSchema } from './model/message.js';
export { indexTerms, normalizeText, queryTerms } from './text/analyze.js';

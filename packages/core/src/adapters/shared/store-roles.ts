import type { ActiveModeStore } from '../../ports/active-mode-store.js';
import type { BudgetStore } from '../../ports/budget-store.js';
import type { ConsentStore } from '../../ports/consent-store.js';
import type { ConversationStore } from '../../ports/conversation-store.js';
import type { CursorStore } from '../../ports/cursor-store.js';
import type { DigestStore } from '../../ports/digest-store.js';
import type { ErasureLog } from '../../ports/erasure-log.js';
import type { GuildAdminStore } from '../../ports/guild-admin-store.js';
import type { MetaStore } from '../../ports/meta-store.js';
import type { ReplyClaimStore } from '../../ports/reply-claim-store.js';

/** One object that serves every governance role (consent, digests, cursors, meta, budgets, erasures, admin). */
export type GovernanceRoles = ConsentStore &
  DigestStore &
  CursorStore &
  MetaStore &
  BudgetStore &
  ErasureLog &
  GuildAdminStore;

/** The governance role properties of a `MemoryStore`, all served by `impl`. */
export function governanceRoles(impl: GovernanceRoles) {
  return {
    consent: impl,
    digests: impl,
    cursors: impl,
    meta: impl,
    budgets: impl,
    erasures: impl,
    admin: impl,
  } as const;
}

/** The conversation, reply-claim and active-mode role properties of a `MemoryStore`, all served by `impl`. */
export function conversationRoles(impl: ConversationStore & ReplyClaimStore & ActiveModeStore) {
  return { conversation: impl, claims: impl, modes: impl } as const;
}

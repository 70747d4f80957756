// Extend these bases instead of implementing the ports directly: each declares the port's methods
// abstract and implements those that can be built from the others; a method added to a port in a
// later release comes with a default here, so a store that extends the base keeps compiling and
// working (kysely's DialectAdapterBase does the same for dialects).
// Bases of the governance ports (consent, digests, cursors, meta, budgets, erasures, guild admin), and one base for an object serving all of them.
import type { BudgetStore } from './budget-store.js';
import type { ConsentStore } from './consent-store.js';
import type { CursorStore } from './cursor-store.js';
import type { DigestStore } from './digest-store.js';
import type { ErasureLog } from './erasure-log.js';
import type { GuildAdminStore } from './guild-admin-store.js';
import type { MetaStore } from './meta-store.js';

/** `isOptedOut` from `optedOutUsers` (the default of ConsentStoreBase and GovernanceRolesBase). */
function isOptedOutByList(
  store: Pick<ConsentStore, 'optedOutUsers'>,
  guildId: string,
  userId: string,
): Promise<boolean> {
  return store.optedOutUsers(guildId).then((ids) => ids.includes(userId));
}

export abstract class ConsentStoreBase implements ConsentStore {
  abstract setOptOut(...args: Parameters<ConsentStore['setOptOut']>): ReturnType<ConsentStore['setOptOut']>;
  /** Default: looks the member up in `optedOutUsers` (override with a point read). */
  isOptedOut(
    ...[guildId, userId]: Parameters<ConsentStore['isOptedOut']>
  ): ReturnType<ConsentStore['isOptedOut']> {
    return isOptedOutByList(this, guildId, userId);
  }
  abstract optedOutUsers(
    ...args: Parameters<ConsentStore['optedOutUsers']>
  ): ReturnType<ConsentStore['optedOutUsers']>;
}

export abstract class DigestStoreBase implements DigestStore {
  abstract getDigest(...args: Parameters<DigestStore['getDigest']>): ReturnType<DigestStore['getDigest']>;
  abstract putDigest(...args: Parameters<DigestStore['putDigest']>): ReturnType<DigestStore['putDigest']>;
}

export abstract class CursorStoreBase implements CursorStore {
  abstract getCursor(...args: Parameters<CursorStore['getCursor']>): ReturnType<CursorStore['getCursor']>;
  abstract setCursor(...args: Parameters<CursorStore['setCursor']>): ReturnType<CursorStore['setCursor']>;
}

export abstract class MetaStoreBase implements MetaStore {
  abstract getMeta(...args: Parameters<MetaStore['getMeta']>): ReturnType<MetaStore['getMeta']>;
  abstract setMeta(...args: Parameters<MetaStore['setMeta']>): ReturnType<MetaStore['setMeta']>;
}

export abstract class BudgetStoreBase implements BudgetStore {
  abstract chargeTokens(
    ...args: Parameters<BudgetStore['chargeTokens']>
  ): ReturnType<BudgetStore['chargeTokens']>;
  abstract tokenUsage(...args: Parameters<BudgetStore['tokenUsage']>): ReturnType<BudgetStore['tokenUsage']>;
}

export abstract class ErasureLogBase implements ErasureLog {
  abstract recordErasure(
    ...args: Parameters<ErasureLog['recordErasure']>
  ): ReturnType<ErasureLog['recordErasure']>;
  abstract erasuresSince(
    ...args: Parameters<ErasureLog['erasuresSince']>
  ): ReturnType<ErasureLog['erasuresSince']>;
  abstract pruneErasures(
    ...args: Parameters<ErasureLog['pruneErasures']>
  ): ReturnType<ErasureLog['pruneErasures']>;
}

export abstract class GuildAdminStoreBase implements GuildAdminStore {
  abstract applyPurge(
    ...args: Parameters<GuildAdminStore['applyPurge']>
  ): ReturnType<GuildAdminStore['applyPurge']>;
  /** Default: nothing to rewrite (stores without `physicalPurge`). */
  compactDeleted(): ReturnType<GuildAdminStore['compactDeleted']> {
    return Promise.resolve();
  }
  abstract exportGuild(
    ...args: Parameters<GuildAdminStore['exportGuild']>
  ): ReturnType<GuildAdminStore['exportGuild']>;
  abstract applyImport(
    ...args: Parameters<GuildAdminStore['applyImport']>
  ): ReturnType<GuildAdminStore['applyImport']>;
  abstract guildStats(
    ...args: Parameters<GuildAdminStore['guildStats']>
  ): ReturnType<GuildAdminStore['guildStats']>;
  abstract listGuildIds(
    ...args: Parameters<GuildAdminStore['listGuildIds']>
  ): ReturnType<GuildAdminStore['listGuildIds']>;
}

export abstract class GovernanceRolesBase
  extends GuildAdminStoreBase
  implements ConsentStore, DigestStore, CursorStore, MetaStore, BudgetStore, ErasureLog
{
  abstract setOptOut(...args: Parameters<ConsentStore['setOptOut']>): ReturnType<ConsentStore['setOptOut']>;
  abstract optedOutUsers(
    ...args: Parameters<ConsentStore['optedOutUsers']>
  ): ReturnType<ConsentStore['optedOutUsers']>;
  abstract getDigest(...args: Parameters<DigestStore['getDigest']>): ReturnType<DigestStore['getDigest']>;
  abstract putDigest(...args: Parameters<DigestStore['putDigest']>): ReturnType<DigestStore['putDigest']>;
  abstract getCursor(...args: Parameters<CursorStore['getCursor']>): ReturnType<CursorStore['getCursor']>;
  abstract setCursor(...args: Parameters<CursorStore['setCursor']>): ReturnType<CursorStore['setCursor']>;
  abstract getMeta(...args: Parameters<MetaStore['getMeta']>): ReturnType<MetaStore['getMeta']>;
  abstract setMeta(...args: Parameters<MetaStore['setMeta']>): ReturnType<MetaStore['setMeta']>;
  abstract chargeTokens(
    ...args: Parameters<BudgetStore['chargeTokens']>
  ): ReturnType<BudgetStore['chargeTokens']>;
  abstract tokenUsage(...args: Parameters<BudgetStore['tokenUsage']>): ReturnType<BudgetStore['tokenUsage']>;
  abstract recordErasure(
    ...args: Parameters<ErasureLog['recordErasure']>
  ): ReturnType<ErasureLog['recordErasure']>;
  abstract erasuresSince(
    ...args: Parameters<ErasureLog['erasuresSince']>
  ): ReturnType<ErasureLog['erasuresSince']>;
  abstract pruneErasures(
    ...args: Parameters<ErasureLog['pruneErasures']>
  ): ReturnType<ErasureLog['pruneErasures']>;
  isOptedOut(
    ...[guildId, userId]: Parameters<ConsentStore['isOptedOut']>
  ): ReturnType<ConsentStore['isOptedOut']> {
    return isOptedOutByList(this, guildId, userId);
  }
}

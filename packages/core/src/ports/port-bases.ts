// Bases to extend instead of implementing the role ports directly. Each declares the port's
// methods as abstract and gives a default for those that can be built from the others; a method
// added to a port in a later release comes with a default here, so a store that extends the base
// keeps compiling and working (kysely's DialectAdapterBase does the same for dialects).
import type { Alias } from '../model/graph.js';
import type { ReactionRef } from '../model/reaction.js';
import type { ActiveModeStore } from './active-mode-store.js';
import type { AliasStore } from './alias-store.js';
import type { BudgetStore } from './budget-store.js';
import type { ConsentStore } from './consent-store.js';
import type { ConversationStore } from './conversation-store.js';
import type { CursorStore } from './cursor-store.js';
import type { DigestStore } from './digest-store.js';
import type { ErasureLog } from './erasure-log.js';
import type { FactStore } from './fact-store.js';
import type { GraphStore } from './graph-store.js';
import type { GuildAdminStore } from './guild-admin-store.js';
import type { EnqueueOutcome, IngestQueue } from './ingest-queue.js';
import type { MetaStore } from './meta-store.js';
import type { ReactionStore } from './reaction-store.js';
import type { ReplyClaimStore } from './reply-claim-store.js';
import type { VectorIndex } from './vector-index.js';

/** `isOptedOut` from `optedOutUsers` (the default of ConsentStoreBase and GovernanceRolesBase). */
function isOptedOutByList(
  store: Pick<ConsentStore, 'optedOutUsers'>,
  guildId: string,
  userId: string,
): Promise<boolean> {
  return store.optedOutUsers(guildId).then((ids) => ids.includes(userId));
}

export abstract class FactStoreBase implements FactStore {
  abstract insert(...args: Parameters<FactStore['insert']>): ReturnType<FactStore['insert']>;
  abstract get(...args: Parameters<FactStore['get']>): ReturnType<FactStore['get']>;
  abstract update(...args: Parameters<FactStore['update']>): ReturnType<FactStore['update']>;
  abstract findByNormalizedText(
    ...args: Parameters<FactStore['findByNormalizedText']>
  ): ReturnType<FactStore['findByNormalizedText']>;
  abstract list(...args: Parameters<FactStore['list']>): ReturnType<FactStore['list']>;
  abstract topStrength(...args: Parameters<FactStore['topStrength']>): ReturnType<FactStore['topStrength']>;
  abstract searchText(...args: Parameters<FactStore['searchText']>): ReturnType<FactStore['searchText']>;
  abstract touch(...args: Parameters<FactStore['touch']>): ReturnType<FactStore['touch']>;
  abstract citing(...args: Parameters<FactStore['citing']>): ReturnType<FactStore['citing']>;
  abstract statedBy(...args: Parameters<FactStore['statedBy']>): ReturnType<FactStore['statedBy']>;
  abstract quoting(...args: Parameters<FactStore['quoting']>): ReturnType<FactStore['quoting']>;
  abstract appendHistory(
    ...args: Parameters<FactStore['appendHistory']>
  ): ReturnType<FactStore['appendHistory']>;
  /** Default: reads each fact's history (override with one count). */
  async countHistory(
    ...[guildId, factIds]: Parameters<FactStore['countHistory']>
  ): ReturnType<FactStore['countHistory']> {
    let n = 0;
    for (const id of new Set(factIds)) n += (await this.history(guildId, id)).length;
    return n;
  }
  abstract history(...args: Parameters<FactStore['history']>): ReturnType<FactStore['history']>;
}

export abstract class AliasStoreBase implements AliasStore {
  abstract upsert(...args: Parameters<AliasStore['upsert']>): ReturnType<AliasStore['upsert']>;
  abstract find(...args: Parameters<AliasStore['find']>): ReturnType<AliasStore['find']>;
  /** Default: one `find` per alias (override with a single read). */
  async findMany(
    ...[guildId, aliases, limitPerAlias]: Parameters<AliasStore['findMany']>
  ): ReturnType<AliasStore['findMany']> {
    const out = new Map<string, Alias[]>();
    for (const alias of new Set(aliases)) {
      const found = await this.find(guildId, alias, limitPerAlias);
      if (found.length > 0) out.set(alias, found);
    }
    return out;
  }
  abstract findByPrefix(
    ...args: Parameters<AliasStore['findByPrefix']>
  ): ReturnType<AliasStore['findByPrefix']>;
  abstract aliasesOf(...args: Parameters<AliasStore['aliasesOf']>): ReturnType<AliasStore['aliasesOf']>;
}

export abstract class GraphStoreBase implements GraphStore {
  abstract addLinks(...args: Parameters<GraphStore['addLinks']>): ReturnType<GraphStore['addLinks']>;
  abstract linksForNodes(
    ...args: Parameters<GraphStore['linksForNodes']>
  ): ReturnType<GraphStore['linksForNodes']>;
  abstract linksForFacts(
    ...args: Parameters<GraphStore['linksForFacts']>
  ): ReturnType<GraphStore['linksForFacts']>;
  abstract upsertRelation(
    ...args: Parameters<GraphStore['upsertRelation']>
  ): ReturnType<GraphStore['upsertRelation']>;
  abstract relationsOf(...args: Parameters<GraphStore['relationsOf']>): ReturnType<GraphStore['relationsOf']>;
  abstract relationsTouching(
    ...args: Parameters<GraphStore['relationsTouching']>
  ): ReturnType<GraphStore['relationsTouching']>;
  abstract relationsCiting(
    ...args: Parameters<GraphStore['relationsCiting']>
  ): ReturnType<GraphStore['relationsCiting']>;
  abstract dropEvidence(
    ...args: Parameters<GraphStore['dropEvidence']>
  ): ReturnType<GraphStore['dropEvidence']>;
  abstract upsertEntity(
    ...args: Parameters<GraphStore['upsertEntity']>
  ): ReturnType<GraphStore['upsertEntity']>;
  abstract getEntities(...args: Parameters<GraphStore['getEntities']>): ReturnType<GraphStore['getEntities']>;
  abstract findEntitiesByAlias(
    ...args: Parameters<GraphStore['findEntitiesByAlias']>
  ): ReturnType<GraphStore['findEntitiesByAlias']>;
  abstract bumpEntityFacts(
    ...args: Parameters<GraphStore['bumpEntityFacts']>
  ): ReturnType<GraphStore['bumpEntityFacts']>;
  abstract linkEntityToUser(
    ...args: Parameters<GraphStore['linkEntityToUser']>
  ): ReturnType<GraphStore['linkEntityToUser']>;
  abstract entitiesLinkedTo(
    ...args: Parameters<GraphStore['entitiesLinkedTo']>
  ): ReturnType<GraphStore['entitiesLinkedTo']>;
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

export abstract class IngestQueueBase implements IngestQueue {
  abstract enqueue(...args: Parameters<IngestQueue['enqueue']>): ReturnType<IngestQueue['enqueue']>;
  /**
   * Default: `enqueue` in order (inside the caller's transaction when the store has one; override
   * with one statement or one bulk write).
   */
  async enqueueMany(
    ...[messages, maxDepth]: Parameters<IngestQueue['enqueueMany']>
  ): ReturnType<IngestQueue['enqueueMany']> {
    const out: EnqueueOutcome[] = [];
    for (const m of messages) out.push(await this.enqueue(m, maxDepth));
    return out;
  }
  abstract markEdited(...args: Parameters<IngestQueue['markEdited']>): ReturnType<IngestQueue['markEdited']>;
  abstract dueKeys(...args: Parameters<IngestQueue['dueKeys']>): ReturnType<IngestQueue['dueKeys']>;
  abstract claim(...args: Parameters<IngestQueue['claim']>): ReturnType<IngestQueue['claim']>;
  abstract acquireLease(
    ...args: Parameters<IngestQueue['acquireLease']>
  ): ReturnType<IngestQueue['acquireLease']>;
  abstract renewLease(...args: Parameters<IngestQueue['renewLease']>): ReturnType<IngestQueue['renewLease']>;
  abstract releaseLease(
    ...args: Parameters<IngestQueue['releaseLease']>
  ): ReturnType<IngestQueue['releaseLease']>;
  abstract complete(...args: Parameters<IngestQueue['complete']>): ReturnType<IngestQueue['complete']>;
  abstract fail(...args: Parameters<IngestQueue['fail']>): ReturnType<IngestQueue['fail']>;
  abstract releaseExpired(
    ...args: Parameters<IngestQueue['releaseExpired']>
  ): ReturnType<IngestQueue['releaseExpired']>;
  abstract requeueDead(
    ...args: Parameters<IngestQueue['requeueDead']>
  ): ReturnType<IngestQueue['requeueDead']>;
  abstract counts(...args: Parameters<IngestQueue['counts']>): ReturnType<IngestQueue['counts']>;
  abstract recent(...args: Parameters<IngestQueue['recent']>): ReturnType<IngestQueue['recent']>;
}

export abstract class VectorIndexBase implements VectorIndex {
  abstract upsert(...args: Parameters<VectorIndex['upsert']>): ReturnType<VectorIndex['upsert']>;
  abstract setActive(...args: Parameters<VectorIndex['setActive']>): ReturnType<VectorIndex['setActive']>;
  abstract delete(...args: Parameters<VectorIndex['delete']>): ReturnType<VectorIndex['delete']>;
  abstract search(...args: Parameters<VectorIndex['search']>): ReturnType<VectorIndex['search']>;
  abstract count(...args: Parameters<VectorIndex['count']>): ReturnType<VectorIndex['count']>;
  abstract dimensions(...args: Parameters<VectorIndex['dimensions']>): ReturnType<VectorIndex['dimensions']>;
  abstract reset(...args: Parameters<VectorIndex['reset']>): ReturnType<VectorIndex['reset']>;
}

export abstract class ConversationStoreBase implements ConversationStore {
  abstract channelHistory(
    ...args: Parameters<ConversationStore['channelHistory']>
  ): ReturnType<ConversationStore['channelHistory']>;
  abstract authorHistory(
    ...args: Parameters<ConversationStore['authorHistory']>
  ): ReturnType<ConversationStore['authorHistory']>;
  abstract channelStats(
    ...args: Parameters<ConversationStore['channelStats']>
  ): ReturnType<ConversationStore['channelStats']>;
  abstract searchText(
    ...args: Parameters<ConversationStore['searchText']>
  ): ReturnType<ConversationStore['searchText']>;
  abstract getMessages(
    ...args: Parameters<ConversationStore['getMessages']>
  ): ReturnType<ConversationStore['getMessages']>;
  abstract listMessages(
    ...args: Parameters<ConversationStore['listMessages']>
  ): ReturnType<ConversationStore['listMessages']>;
  abstract channelCounts(
    ...args: Parameters<ConversationStore['channelCounts']>
  ): ReturnType<ConversationStore['channelCounts']>;
  abstract deleteMessages(
    ...args: Parameters<ConversationStore['deleteMessages']>
  ): ReturnType<ConversationStore['deleteMessages']>;
  abstract trimChannel(
    ...args: Parameters<ConversationStore['trimChannel']>
  ): ReturnType<ConversationStore['trimChannel']>;
}

export abstract class ReplyClaimStoreBase implements ReplyClaimStore {
  abstract tryClaim(
    ...args: Parameters<ReplyClaimStore['tryClaim']>
  ): ReturnType<ReplyClaimStore['tryClaim']>;
  abstract releaseClaim(
    ...args: Parameters<ReplyClaimStore['releaseClaim']>
  ): ReturnType<ReplyClaimStore['releaseClaim']>;
}

export abstract class ActiveModeStoreBase implements ActiveModeStore {
  abstract upsertMode(
    ...args: Parameters<ActiveModeStore['upsertMode']>
  ): ReturnType<ActiveModeStore['upsertMode']>;
  abstract touchMode(
    ...args: Parameters<ActiveModeStore['touchMode']>
  ): ReturnType<ActiveModeStore['touchMode']>;
  abstract removeMode(
    ...args: Parameters<ActiveModeStore['removeMode']>
  ): ReturnType<ActiveModeStore['removeMode']>;
  abstract listModes(
    ...args: Parameters<ActiveModeStore['listModes']>
  ): ReturnType<ActiveModeStore['listModes']>;
}

export abstract class ReactionStoreBase implements ReactionStore {
  abstract addReaction(
    ...args: Parameters<ReactionStore['addReaction']>
  ): ReturnType<ReactionStore['addReaction']>;
  abstract removeReaction(
    ...args: Parameters<ReactionStore['removeReaction']>
  ): ReturnType<ReactionStore['removeReaction']>;
  /** Default: pages the messages' reactions and deletes them (override with one statement). */
  async clearReactions(
    ...[guildId, messageIds, options]: Parameters<ReactionStore['clearReactions']>
  ): ReturnType<ReactionStore['clearReactions']> {
    let n = 0;
    for (let i = 0; i < messageIds.length; i += 1000) {
      const ids = messageIds.slice(i, i + 1000);
      let after: ReactionRef | undefined;
      for (;;) {
        const page = await this.listReactions(guildId, {
          messageIds: ids,
          limit: 1000,
          ...(after ? { after } : {}),
        });
        n += await this.deleteReactions(
          guildId,
          page.filter((r) => options?.emoji === undefined || r.emoji === options.emoji),
        );
        if (page.length < 1000) break;
        after = page[page.length - 1];
      }
    }
    return n;
  }
  /** Default: `removeReaction` one by one (override with one statement). */
  async deleteReactions(
    ...[guildId, refs]: Parameters<ReactionStore['deleteReactions']>
  ): ReturnType<ReactionStore['deleteReactions']> {
    let n = 0;
    for (const ref of refs) if (await this.removeReaction(guildId, ref)) n++;
    return n;
  }
  abstract reactionCounts(
    ...args: Parameters<ReactionStore['reactionCounts']>
  ): ReturnType<ReactionStore['reactionCounts']>;
  abstract listReactions(
    ...args: Parameters<ReactionStore['listReactions']>
  ): ReturnType<ReactionStore['listReactions']>;
}

/**
 * One object serving every governance role (consent, digests, cursors, meta, budgets, erasures,
 * guild admin), with the same defaults as the single-role bases. Pass it to `governanceRoles()`.
 */
export abstract class GovernanceRolesBase
  implements ConsentStore, DigestStore, CursorStore, MetaStore, BudgetStore, ErasureLog, GuildAdminStore
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
  abstract applyPurge(
    ...args: Parameters<GuildAdminStore['applyPurge']>
  ): ReturnType<GuildAdminStore['applyPurge']>;
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
  isOptedOut(
    ...[guildId, userId]: Parameters<ConsentStore['isOptedOut']>
  ): ReturnType<ConsentStore['isOptedOut']> {
    return isOptedOutByList(this, guildId, userId);
  }
  compactDeleted(): ReturnType<GuildAdminStore['compactDeleted']> {
    return Promise.resolve();
  }
}

/** One object serving the conversation, reply-claim and active-mode roles. Pass it to `conversationRoles()`. */
export abstract class ConversationRolesBase implements ConversationStore, ReplyClaimStore, ActiveModeStore {
  abstract channelHistory(
    ...args: Parameters<ConversationStore['channelHistory']>
  ): ReturnType<ConversationStore['channelHistory']>;
  abstract authorHistory(
    ...args: Parameters<ConversationStore['authorHistory']>
  ): ReturnType<ConversationStore['authorHistory']>;
  abstract channelStats(
    ...args: Parameters<ConversationStore['channelStats']>
  ): ReturnType<ConversationStore['channelStats']>;
  abstract searchText(
    ...args: Parameters<ConversationStore['searchText']>
  ): ReturnType<ConversationStore['searchText']>;
  abstract getMessages(
    ...args: Parameters<ConversationStore['getMessages']>
  ): ReturnType<ConversationStore['getMessages']>;
  abstract listMessages(
    ...args: Parameters<ConversationStore['listMessages']>
  ): ReturnType<ConversationStore['listMessages']>;
  abstract channelCounts(
    ...args: Parameters<ConversationStore['channelCounts']>
  ): ReturnType<ConversationStore['channelCounts']>;
  abstract deleteMessages(
    ...args: Parameters<ConversationStore['deleteMessages']>
  ): ReturnType<ConversationStore['deleteMessages']>;
  abstract trimChannel(
    ...args: Parameters<ConversationStore['trimChannel']>
  ): ReturnType<ConversationStore['trimChannel']>;
  abstract tryClaim(
    ...args: Parameters<ReplyClaimStore['tryClaim']>
  ): ReturnType<ReplyClaimStore['tryClaim']>;
  abstract releaseClaim(
    ...args: Parameters<ReplyClaimStore['releaseClaim']>
  ): ReturnType<ReplyClaimStore['releaseClaim']>;
  abstract upsertMode(
    ...args: Parameters<ActiveModeStore['upsertMode']>
  ): ReturnType<ActiveModeStore['upsertMode']>;
  abstract touchMode(
    ...args: Parameters<ActiveModeStore['touchMode']>
  ): ReturnType<ActiveModeStore['touchMode']>;
  abstract removeMode(
    ...args: Parameters<ActiveModeStore['removeMode']>
  ): ReturnType<ActiveModeStore['removeMode']>;
  abstract listModes(
    ...args: Parameters<ActiveModeStore['listModes']>
  ): ReturnType<ActiveModeStore['listModes']>;
}

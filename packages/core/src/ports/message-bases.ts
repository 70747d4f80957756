// Extend these bases instead of implementing the ports directly: each declares the port's methods
// abstract and implements those that can be built from the others; a method added to a port in a
// later release comes with a default here, so a store that extends the base keeps compiling and
// working (kysely's DialectAdapterBase does the same for dialects).
// Bases of the message ports (queue, vectors, conversation, reply claims, active modes), and one base for an object serving the conversation roles.
import type { ReactionRef } from '../model/reaction.js';
import type { ActiveModeStore } from './active-mode-store.js';
import type { ConversationStore, MessageWindow, WindowAnchor } from './conversation-store.js';
import type { EnqueueOutcome, IngestQueue } from './ingest-queue.js';
import type { ReactionStore } from './reaction-store.js';
import type { ReplyClaimStore } from './reply-claim-store.js';
import type { VectorIndex } from './vector-index.js';

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
  /** Default: two `channelHistory` reads per anchor, at most 16 anchors at a time (override with one read). */
  async channelWindows(
    ...[guildId, anchors, window]: Parameters<ConversationStore['channelWindows']>
  ): ReturnType<ConversationStore['channelWindows']> {
    const out: MessageWindow[] = new Array(anchors.length);
    let next = 0;
    const worker = async () => {
      while (next < anchors.length) {
        const i = next++;
        const a = anchors[i] as WindowAnchor;
        const [before, after] = await Promise.all([
          this.channelHistory(guildId, a.channelId, { limit: window, beforeMessageId: a.messageId }),
          this.channelHistory(guildId, a.channelId, { limit: window, afterMessageId: a.messageId }),
        ]);
        out[i] = { before, after };
      }
    };
    await Promise.all(Array.from({ length: Math.min(16, anchors.length) }, worker));
    return out;
  }
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

/** One object serving the conversation, reply-claim and active-mode roles. Pass it to `conversationRoles()`. */
export abstract class ConversationRolesBase
  extends ConversationStoreBase
  implements ReplyClaimStore, ActiveModeStore
{
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

/** Reactions: `clearReactions` and `deleteReactions` have defaults built from the others. */
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

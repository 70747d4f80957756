import { IgnoreReason, MessageKind, ObserveStatus } from '../model/enums.js';
import { type ClearReactions, type ReactionEvent, reactionEventSchema } from '../model/reaction.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { parseInput } from '../validation/index.js';
import { type ObserveReceipt, receipt, rejectedReceipt } from './observe-receipts.js';

export interface ReactionObserverDeps {
  readonly clock: Clock;
  readonly isBot: (userId: string) => boolean;
  readonly logger?: Logger;
}

/** Validates a reaction event (SCHEMA_INVALID is the only error `observeReaction` raises). */
export function parseReactionEvent(input: unknown): ReactionEvent {
  return parseInput(reactionEventSchema, input, 'observeReaction');
}

/**
 * The reaction path, O(1) like observe: no model, at most one consent read, one message read and
 * one row write. A reaction is stored only on a stored message (chat or the bot's reply) and is
 * never a statement: nothing is extracted from it and no fact is attributed to the member who
 * reacted. Adds by bots and opted-out members are ignored; a removal is always applied (it only
 * deletes).
 */
export class ReactionObserver {
  readonly #deps: ReactionObserverDeps;

  constructor(deps: ReactionObserverDeps) {
    this.#deps = deps;
  }

  async observe(store: MemoryStore, event: ReactionEvent): Promise<ObserveReceipt> {
    const { messageId, guildId, userId } = event;
    if (event.added && (event.userIsBot || this.#deps.isBot(userId)))
      return receipt(messageId, ObserveStatus.IGNORED, IgnoreReason.BOT_AUTHOR);
    try {
      if (!event.added) {
        const removed = await store.reactions.removeReaction(guildId, {
          messageId,
          userId,
          emoji: event.emoji,
        });
        return removed
          ? receipt(messageId, ObserveStatus.ACCEPTED)
          : receipt(messageId, ObserveStatus.IGNORED, IgnoreReason.DUPLICATE);
      }
      if (await store.consent.isOptedOut(guildId, userId))
        return receipt(messageId, ObserveStatus.IGNORED, IgnoreReason.OPTED_OUT);
      const [message] = await store.conversation.getMessages(guildId, [messageId]);
      if (!message || message.kind === MessageKind.SESSION)
        return receipt(messageId, ObserveStatus.IGNORED, IgnoreReason.UNKNOWN_MESSAGE);
      const added = await store.reactions.addReaction({
        guildId,
        channelId: message.channelId,
        messageId,
        userId,
        emoji: event.emoji,
        at: event.at ?? this.#deps.clock.now(),
      });
      return added
        ? receipt(messageId, ObserveStatus.ACCEPTED)
        : receipt(messageId, ObserveStatus.IGNORED, IgnoreReason.DUPLICATE);
    } catch (error) {
      this.#deps.logger?.({
        level: 'warn',
        event: 'observe_reaction.store_failed',
        data: { guildId },
        error,
      });
      return rejectedReceipt(messageId, error);
    }
  }

  /** Removes every reaction of a message (or those with one emoji); returns how many. */
  async clear(store: MemoryStore, v: ClearReactions): Promise<number> {
    return store.reactions.clearReactions(
      v.guildId,
      [v.messageId],
      v.emoji === undefined ? {} : { emoji: v.emoji },
    );
  }
}

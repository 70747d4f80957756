import type { StoredMessage } from '../model/message.js';
import type { ReactionCount } from '../model/reaction.js';

/** A message as conversation APIs return it (queue bookkeeping left out). */
export interface ConversationMessage {
  readonly messageId: string;
  readonly guildId: string;
  readonly channelId: string;
  readonly authorId: string;
  readonly authorName: string;
  readonly content: string;
  readonly createdAt: Date;
  readonly isBot: boolean;
  readonly kind: 'chat' | 'reply' | 'session';
  readonly replyToMessageId: string | null;
  readonly threadParentId: string | null;
  readonly edited: boolean;
  /** Members' reactions by emoji, most reacted first (empty when none; opted-out members not counted). */
  readonly reactions: readonly ReactionCount[];
}

export function toConversationMessage(m: StoredMessage): ConversationMessage {
  return {
    messageId: m.messageId,
    guildId: m.guildId,
    channelId: m.channelId,
    authorId: m.authorId,
    authorName: m.authorDisplayName || m.authorUsername,
    content: m.rawStored ? m.content : '',
    createdAt: m.createdAt,
    isBot: m.authorIsBot || m.kind === 'reply',
    kind: m.kind,
    replyToMessageId: m.replyToMessageId,
    threadParentId: m.threadParentId,
    edited: m.edited,
    reactions: [],
  };
}

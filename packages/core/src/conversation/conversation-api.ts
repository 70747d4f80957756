import { z } from 'zod';
import { type AccessDeps, resolveVisibility } from '../access/visibility.js';
import { audienceSchema } from '../model/audience.js';
import { MessageKind, MessageStatus } from '../model/enums.js';
import { MAX_CONTENT_CHARS, type StoredMessage } from '../model/message.js';
import type { Clock, IdGen } from '../ports/clock.js';
import type { ChannelStats } from '../ports/conversation-store.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { countField, idField as id, MAX_TEXT_CHARS, parseInput, userIdField } from '../validation/index.js';
import type { HotTier } from './hot-tier.js';
import { type ConversationMessage, toConversationMessage } from './message-view.js';
import { withReactions } from './reaction-counts.js';

export interface SessionEntry {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
  readonly at: Date;
}

const ROLES = new Set(['system', 'user', 'assistant']);
const sessionGuild = (sessionId: string) => `session:${sessionId}`;

const replySchema = z
  .object({
    guildId: id,
    channelId: id,
    content: z.string().min(1).max(MAX_TEXT_CHARS),
    messageId: id.optional(),
    botId: userIdField.optional(),
    replyToMessageId: id.optional(),
  })
  .strict();
const threadSchema = z
  .object({ guildId: id, channelId: id, limit: countField(1000).optional(), beforeMessageId: id.optional() })
  .strict();
const authorSchema = z
  .object({
    guildId: id,
    authorId: userIdField,
    limit: countField(1000).optional(),
    /** Only messages of channels this audience may see (see `access.requireAudience`). */
    audience: audienceSchema.nullish(),
  })
  .strict();
const channelSchema = z.object({ guildId: id, channelId: id }).strict();
const appendSchema = z
  .object({
    sessionId: id,
    role: z.enum(['system', 'user', 'assistant']),
    content: z.string().max(MAX_TEXT_CHARS),
  })
  .strict();
const sessionArgs = z.tuple([
  id,
  z
    .object({ limit: countField(10_000).optional() })
    .strict()
    .optional(),
]);
const clearArgs = z.tuple([id]);

export interface ConversationDeps {
  readonly store: MemoryStore;
  readonly clock: Clock;
  readonly ids: IdGen;
  readonly hot: HotTier;
  readonly maxSessionEntries: number;
  readonly botId: () => string | null;
  readonly access: AccessDeps;
}

/** `memory.conversation`: channel history on the queue's own rows, bot replies, and sessions. */
export function createConversationApi(deps: ConversationDeps) {
  const { store } = deps;
  return {
    /**
     * The latest `limit` (20) messages of a channel, oldest first, with their reaction counts; page
     * back with `beforeMessageId`.
     */
    async threadHistory(input: {
      guildId: string;
      channelId: string;
      limit?: number;
      beforeMessageId?: string;
    }): Promise<ConversationMessage[]> {
      parseInput(threadSchema, input, 'conversation.threadHistory');
      const rows = await store.conversation.channelHistory(input.guildId, input.channelId, {
        limit: Math.min(Math.max(1, input.limit ?? 20), 1000),
        ...(input.beforeMessageId !== undefined ? { beforeMessageId: input.beforeMessageId } : {}),
      });
      return withReactions(store, input.guildId, rows.map(toConversationMessage));
    },

    /**
     * The latest `limit` (50) messages of a member in the guild that the audience may see, oldest
     * first (without an audience and with `access.requireAudience` on: none).
     */
    async authorHistory(input: z.input<typeof authorSchema>): Promise<ConversationMessage[]> {
      const v = parseInput(authorSchema, input, 'conversation.authorHistory');
      const visible = await resolveVisibility(deps.access, v.guildId, v.audience);
      const limit = Math.min(Math.max(1, v.limit ?? 50), 1000);
      // Read past hidden messages (up to 1,000) so the answer still holds `limit` when it can.
      const read = visible.restricted ? Math.min(1000, limit * 4) : limit;
      const rows = await store.conversation.authorHistory(v.guildId, v.authorId, read);
      const shown = rows
        .filter((m) => visible.message(m))
        .slice(-limit)
        .map(toConversationMessage);
      return withReactions(store, v.guildId, shown);
    },

    async channelStats(input: { guildId: string; channelId: string }): Promise<ChannelStats> {
      parseInput(channelSchema, input, 'conversation.channelStats');
      return store.conversation.channelStats(input.guildId, input.channelId);
    },

    /** Stores the bot's own reply in the channel history. Replies are never extracted. */
    async recordReply(input: z.input<typeof replySchema>): Promise<ConversationMessage> {
      const v = parseInput(replySchema, input, 'conversation.recordReply');
      const now = deps.clock.now();
      const botId = v.botId ?? deps.botId() ?? 'bot';
      const row: StoredMessage = {
        messageId: v.messageId ?? deps.ids.next('rpl'),
        guildId: v.guildId,
        channelId: v.channelId,
        authorId: botId,
        authorUsername: '',
        authorDisplayName: '',
        authorIsBot: true,
        content: v.content.slice(0, MAX_CONTENT_CHARS),
        contentTruncated: v.content.length > MAX_CONTENT_CHARS,
        rawStored: true,
        createdAt: now,
        mentionIds: [],
        replyToMessageId: v.replyToMessageId ?? null,
        threadParentId: null,
        edited: false,
        metadata: null,
        kind: MessageKind.REPLY,
        subjectKey: botId,
        status: MessageStatus.PROCESSED,
        attempts: 0,
        nextAttemptAt: null,
        leaseOwner: null,
        leaseUntil: null,
        processedAt: now,
      };
      await store.queue.enqueue(row, Number.MAX_SAFE_INTEGER);
      const view = toConversationMessage(row);
      deps.hot.push(view);
      return view;
    },

    /** Appends to a session history (upsert semantics: the session exists once written). */
    async append(input: {
      sessionId: string;
      role: 'system' | 'user' | 'assistant';
      content: string;
    }): Promise<SessionEntry> {
      const v = parseInput(appendSchema, input, 'conversation.append');
      const now = deps.clock.now();
      await store.queue.enqueue(
        {
          messageId: deps.ids.next('ses'),
          guildId: sessionGuild(v.sessionId),
          channelId: v.sessionId,
          authorId: v.role,
          authorUsername: '',
          authorDisplayName: '',
          authorIsBot: v.role !== 'user',
          content: v.content.slice(0, MAX_CONTENT_CHARS),
          contentTruncated: v.content.length > MAX_CONTENT_CHARS,
          rawStored: true,
          createdAt: now,
          mentionIds: [],
          replyToMessageId: null,
          threadParentId: null,
          edited: false,
          metadata: null,
          kind: MessageKind.SESSION,
          subjectKey: v.sessionId,
          status: MessageStatus.PROCESSED,
          attempts: 0,
          nextAttemptAt: null,
          leaseOwner: null,
          leaseUntil: null,
          processedAt: now,
        },
        Number.MAX_SAFE_INTEGER,
      );
      await store.conversation.trimChannel(sessionGuild(v.sessionId), v.sessionId, deps.maxSessionEntries);
      return { role: v.role, content: v.content, at: now };
    },

    /** The last `limit` (50) entries of a session, oldest first; unreadable rows are skipped. */
    async session(sessionId: string, options: { limit?: number } = {}): Promise<SessionEntry[]> {
      parseInput(sessionArgs, [sessionId, options], 'conversation.session');
      const rows = await store.conversation.channelHistory(sessionGuild(sessionId), sessionId, {
        limit: Math.min(Math.max(1, options.limit ?? 50), 10_000),
      });
      const out: SessionEntry[] = [];
      for (const row of rows) {
        const at = row.createdAt instanceof Date ? row.createdAt : new Date(Number.NaN);
        if (!ROLES.has(row.authorId) || typeof row.content !== 'string' || Number.isNaN(at.getTime()))
          continue;
        out.push({ role: row.authorId as SessionEntry['role'], content: row.content, at });
      }
      return out;
    },

    async clear(sessionId: string): Promise<number> {
      parseInput(clearArgs, [sessionId], 'conversation.clear');
      return store.conversation.trimChannel(sessionGuild(sessionId), sessionId, 0);
    },
  };
}

export type ConversationApi = ReturnType<typeof createConversationApi>;

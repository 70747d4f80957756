import { z } from 'zod';
import type { IngestDeps } from '../ingest/deps.js';
import { applyForgetPlan, type ForgetOutcome, planForget } from '../lifecycle/forget-messages.js';
import type { StoredMessage } from '../model/message.js';
import { idField as id, parseInput } from '../validation/index.js';

export const forgetMessageSchema = z.object({ guildId: id, channelId: id, messageId: id }).strict();
export type ForgetMessageInput = z.input<typeof forgetMessageSchema>;

/** What `forgetMessage` removed. */
export interface ForgetMessageReport {
  readonly guildId: string;
  readonly messageId: string;
  /** Message rows deleted (0 when the message was never stored or is already gone). */
  readonly messagesDeleted: number;
  /** Facts retired because the message was their only source. */
  readonly factsRetired: number;
  /** Source refs (with their snippets) removed from facts. */
  readonly sourcesRemoved: number;
  /** Reactions to the message removed (its counts go with it). */
  readonly reactionsDeleted: number;
}

export interface ForgetApiDeps extends IngestDeps {
  readonly ensureStarted: () => Promise<void>;
  /** Drops the message from per-process caches (the hot conversation tier). */
  readonly dropCached: (guildId: string, channelId: string, messageId: string) => void;
}

/** Message deletions and edits: the raw row goes, and so do the facts only it supported. */
export function createForgetApi(deps: ForgetApiDeps) {
  const { store, clock } = deps;

  const emitRetired = (guildId: string, outcome: ForgetOutcome, reason: string) => {
    for (const f of outcome.retired)
      deps.events.emit('FactSuperseded', {
        guildId,
        subjectId: f.subjectId,
        oldFactId: f.id,
        newFactId: null,
        reason,
      });
  };

  /**
   * One transaction: the erasure is logged first (in-flight batches holding the message drop what
   * it supported when they commit), then the facts are planned and changed, then the row goes
   * (`replacement`, for an edit, is stored in its place as a pending row to extract again).
   */
  const forget = async (
    guildId: string,
    messageId: string,
    detail: string,
    replacement: StoredMessage | null,
  ): Promise<{
    outcome: ForgetOutcome;
    deleted: number;
    reactions: number;
    stored: StoredMessage | null;
  }> => {
    const [stored] = await store.conversation.getMessages(guildId, [messageId]);
    const citing = await store.facts.citing(guildId, [messageId]);
    if (!stored && citing.length === 0)
      return { outcome: { retired: [], sourcesRemoved: 0 }, deleted: 0, reactions: 0, stored: null };
    const at = clock.now();
    const result = await store.transaction(async () => {
      await store.erasures.recordErasure({ guildId, userId: null, messageId, at });
      // Read again inside the transaction: a batch may have committed facts citing it since.
      const plan = planForget(await store.facts.citing(guildId, [messageId]), new Set([messageId]));
      const outcome = await applyForgetPlan(store, guildId, plan, at, detail);
      const deleted = await store.conversation.deleteMessages(guildId, [messageId]);
      // An edit keeps the message's reactions; a deletion takes them (and their counts) along.
      const reactions = replacement ? 0 : await store.reactions.clearReactions(guildId, [messageId]);
      if (replacement) await store.queue.enqueue(replacement, Number.MAX_SAFE_INTEGER);
      return { outcome, deleted, reactions };
    });
    return { ...result, stored: stored ?? null };
  };

  return {
    /**
     * Forgets a deleted message: its row (queue entry, keyword rows, vector) is removed — on SQLite
     * its bytes leave the file and the WAL — facts whose only source it was are retired, and it
     * leaves the sources of the others.
     */
    async forgetMessage(input: ForgetMessageInput): Promise<ForgetMessageReport> {
      const v = parseInput(forgetMessageSchema, input, 'forgetMessage');
      await deps.ensureStarted();
      const { outcome, deleted, reactions, stored } = await forget(
        v.guildId,
        v.messageId,
        'source message deleted',
        null,
      );
      deps.dropCached(v.guildId, v.channelId, v.messageId);
      if (stored && stored.channelId !== v.channelId)
        deps.dropCached(v.guildId, stored.channelId, v.messageId);
      emitRetired(v.guildId, outcome, 'message_deleted');
      return {
        guildId: v.guildId,
        messageId: v.messageId,
        messagesDeleted: deleted,
        factsRetired: outcome.retired.length,
        sourcesRemoved: outcome.sourcesRemoved,
        reactionsDeleted: reactions,
      };
    },

    /**
     * An edit of a stored chat message: facts only the old text supported are retired, the old
     * text is removed, and the new text is stored as a pending row (same id and creation time) so
     * extraction reads it again. False when nothing was stored for the id or the text is unchanged.
     */
    async reviseMessage(row: StoredMessage): Promise<boolean> {
      const [old] = await store.conversation.getMessages(row.guildId, [row.messageId]);
      if (!old || old.kind !== 'chat' || !old.rawStored || !row.rawStored) return false;
      if (old.content === row.content && old.contentTruncated === row.contentTruncated) return false;
      const replacement: StoredMessage = { ...row, createdAt: old.createdAt, edited: true };
      const { outcome } = await forget(row.guildId, row.messageId, 'source message edited', replacement);
      deps.dropCached(row.guildId, old.channelId, row.messageId);
      emitRetired(row.guildId, outcome, 'message_edited');
      return true;
    },
  };
}

export type ForgetApi = ReturnType<typeof createForgetApi>;

import type { Fact } from '../model/fact.js';
import type { StoredMessage } from '../model/message.js';
import type { Reaction } from '../model/reaction.js';
import type { MessageListQuery } from '../ports/conversation-store.js';
import type { FactPageOptions } from '../ports/fact-store.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { ReactionListQuery } from '../ports/reaction-store.js';

/** Rows per read when governance walks a member's data. */
export const PAGE = 500;
/** Ids per read when a port takes a list of ids. */
export const ID_CHUNK = 500;

/** Every fact a paged fact read returns, page by page. */
export async function allFactPages(read: (page: FactPageOptions) => Promise<Fact[]>): Promise<Fact[]> {
  const out: Fact[] = [];
  let afterId: string | undefined;
  for (;;) {
    const page = await read({ limit: PAGE, ...(afterId !== undefined ? { afterId } : {}) });
    out.push(...page);
    const last = page[page.length - 1];
    if (page.length < PAGE || !last) return out;
    afterId = last.id;
  }
}

/**
 * Walks the message rows matching a query, oldest first, one page at a time: each page is handed
 * to `visit`, which may return false to stop. Rows `visit` deletes do not disturb the walk (pages
 * continue from the last row's position).
 */
export async function eachMessagePage(
  store: MemoryStore,
  guildId: string,
  query: Omit<MessageListQuery, 'limit' | 'after'>,
  visit: (page: readonly StoredMessage[]) => Promise<boolean | undefined> | boolean | undefined,
  pageSize = PAGE,
): Promise<void> {
  let after: MessageListQuery['after'];
  for (;;) {
    const page = await store.conversation.listMessages(guildId, {
      ...query,
      limit: pageSize,
      ...(after ? { after } : {}),
    });
    if (page.length > 0 && (await visit(page)) === false) return;
    const last = page[page.length - 1];
    if (page.length < pageSize || !last) return;
    after = { createdAt: last.createdAt, messageId: last.messageId };
  }
}

/** Runs a read over ids in chunks and concatenates the results. */
export async function chunked<T>(
  ids: readonly string[],
  read: (chunk: readonly string[]) => Promise<readonly T[]>,
): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += ID_CHUNK) out.push(...(await read(ids.slice(i, i + ID_CHUNK))));
  return out;
}

/** Sums a count over ids in chunks. */
export async function chunkedCount(
  ids: readonly string[],
  count: (chunk: readonly string[]) => Promise<number>,
): Promise<number> {
  let n = 0;
  for (let i = 0; i < ids.length; i += ID_CHUNK) n += await count(ids.slice(i, i + ID_CHUNK));
  return n;
}

/** Every reaction matching a query (a member's, or those of up to ID_CHUNK messages), page by page. */
export async function allReactionPages(
  store: MemoryStore,
  guildId: string,
  query: Omit<ReactionListQuery, 'limit' | 'after'>,
): Promise<Reaction[]> {
  const out: Reaction[] = [];
  let after: ReactionListQuery['after'];
  for (;;) {
    const page = await store.reactions.listReactions(guildId, {
      ...query,
      limit: PAGE,
      ...(after ? { after } : {}),
    });
    out.push(...page);
    const last = page[page.length - 1];
    if (page.length < PAGE || !last) return out;
    after = { messageId: last.messageId, userId: last.userId, emoji: last.emoji };
  }
}

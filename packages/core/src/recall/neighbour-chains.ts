import type { StoredMessage } from '../model/message.js';
import type { MessageSearchDeps } from './message-search.js';
import type { MessageChain } from './neighbor-smoothing.js';

/** Runs `fn` over items with at most `limit` in flight. */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** The window around each scored message (two channel-history reads each, bounded concurrency). */
export async function neighbourChains(
  deps: MessageSearchDeps,
  guildId: string,
  base: ReadonlyMap<string, number>,
  messages: ReadonlyMap<string, StoredMessage>,
): Promise<MessageChain[]> {
  const r = deps.retrieval;
  if (r.neighborWeight <= 0 || r.neighborWindow <= 0) return [];
  const anchors = [...base.entries()]
    .filter(([, s]) => s > 0)
    .map(([id]) => messages.get(id))
    .filter((m): m is StoredMessage => m !== undefined);
  const history = deps.store.conversation;
  return mapLimited(anchors, 16, async (m) => {
    try {
      const [before, after] = await Promise.all([
        history.channelHistory(guildId, m.channelId, {
          limit: r.neighborWindow,
          beforeMessageId: m.messageId,
        }),
        history.channelHistory(guildId, m.channelId, {
          limit: r.neighborWindow,
          afterMessageId: m.messageId,
        }),
      ]);
      return [...before, m, ...after];
    } catch (error) {
      deps.logger?.({ level: 'warn', event: 'message_search.neighbors_failed', data: { guildId }, error });
      return [m];
    }
  });
}

import type { StoredMessage } from '../model/message.js';
import type { MessageSearchDeps } from './message-search.js';
import type { MessageChain } from './neighbor-smoothing.js';

/** The window around each scored message (one store call for all of them). */
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
  try {
    const windows = await deps.store.conversation.channelWindows(
      guildId,
      anchors.map((m) => ({ channelId: m.channelId, messageId: m.messageId })),
      r.neighborWindow,
    );
    return anchors.map((m, i) => {
      const w = windows[i];
      return w ? [...w.before, m, ...w.after] : [m];
    });
  } catch (error) {
    deps.logger?.({ level: 'warn', event: 'message_search.neighbors_failed', data: { guildId }, error });
    return anchors.map((m) => [m]);
  }
}

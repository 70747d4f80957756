import type { StoredMessage } from '../model/message.js';
import type { MessageTextHit, MessageWindow } from '../ports/conversation-store.js';
import type { MessageSearchDeps } from './message-search.js';
import type { MessageChain } from './neighbor-smoothing.js';

/** Windows read for some messages, by message id; null when the store failed to read them. */
export type KnownWindows = ReadonlyMap<string, MessageWindow> | null;

/** Whether the search reads windows at all (`retrieval.neighborWeight`, `neighborWindow`). */
export const readsWindows = (deps: MessageSearchDeps): boolean =>
  deps.retrieval.neighborWeight > 0 && deps.retrieval.neighborWindow > 0;

/** The windows the keyword search handed over with its hits (`MessageTextHit.window`), by message id. */
export function windowsOfHits(hits: readonly MessageTextHit[]): Map<string, MessageWindow> {
  const out = new Map<string, MessageWindow>();
  for (const h of hits) if (h.window) out.set(h.message.messageId, h.window);
  return out;
}

/** The window around each message (one store call for all of them), by message id. */
export async function readWindows(
  deps: MessageSearchDeps,
  guildId: string,
  around: readonly StoredMessage[],
): Promise<KnownWindows> {
  if (around.length === 0 || !readsWindows(deps)) return new Map();
  try {
    const windows = await deps.store.conversation.channelWindows(
      guildId,
      around.map((m) => ({ channelId: m.channelId, messageId: m.messageId })),
      deps.retrieval.neighborWindow,
    );
    const out = new Map<string, MessageWindow>();
    around.forEach((m, i) => {
      const w = windows[i];
      if (w) out.set(m.messageId, w);
    });
    return out;
  } catch (error) {
    deps.logger?.({ level: 'warn', event: 'message_search.neighbors_failed', data: { guildId }, error });
    return null;
  }
}

/**
 * The window around each scored message. `known` holds windows read ahead (the vector hits', read
 * while the keyword search was still running, and those the keyword search handed over with its
 * hits); the others are read in one store call. When a read
 * failed every message stands alone, as with no windows at all.
 */
export async function neighbourChains(
  deps: MessageSearchDeps,
  guildId: string,
  base: ReadonlyMap<string, number>,
  messages: ReadonlyMap<string, StoredMessage>,
  known: Promise<KnownWindows>,
): Promise<MessageChain[]> {
  if (!readsWindows(deps)) return [];
  const anchors = [...base.entries()]
    .filter(([, s]) => s > 0)
    .map(([id]) => messages.get(id))
    .filter((m): m is StoredMessage => m !== undefined);
  const ahead = await known;
  const rest =
    ahead === null
      ? null
      : await readWindows(
          deps,
          guildId,
          anchors.filter((m) => !ahead.has(m.messageId)),
        );
  if (ahead === null || rest === null) return anchors.map((m) => [m]);
  return anchors.map((m) => {
    const w = ahead.get(m.messageId) ?? rest.get(m.messageId);
    return w ? [...w.before, m, ...w.after] : [m];
  });
}

import type { StoredMessage } from '../model/message.js';
import { gapFreeRuns } from './neighbor-smoothing.js';

/** How many of a conversation's best message scores make its score (one strong line is not a topic). */
export const CONVERSATION_TOP_MESSAGES = 2;

/**
 * Splits the scored messages into conversations: one channel, consecutive scored messages at
 * most `maxGapMs` apart (the gap that also ends neighbour smoothing).
 */
function conversations(messages: readonly StoredMessage[], maxGapMs: number): StoredMessage[][] {
  const sorted = [...messages].sort(
    (a, b) =>
      (a.channelId < b.channelId ? -1 : a.channelId > b.channelId ? 1 : 0) ||
      a.createdAt.getTime() - b.createdAt.getTime() ||
      (a.messageId < b.messageId ? -1 : 1),
  );
  return gapFreeRuns(sorted, maxGapMs);
}

/**
 * Conversation boost: a conversation's score is the sum of its best CONVERSATION_TOP_MESSAGES
 * message scores, divided by the best conversation's; every scored message of it gains
 * `weight` × that share, and the result is divided by 1 + weight so scores stay in [0, 1].
 * Messages about the topic of a conversation that matches the query as a whole rise above
 * isolated matches elsewhere; only messages that already have a score move. Returns new scores
 * (the input is not changed); `weight` ≤ 0 returns them as they are.
 */
export function boostConversations(
  scores: ReadonlyMap<string, number>,
  messages: ReadonlyMap<string, StoredMessage>,
  weight: number,
  maxGapMs: number,
): Map<string, number> {
  const out = new Map(scores);
  if (weight <= 0) return out;
  const scored = [...scores.entries()]
    .filter(([, s]) => s > 0)
    .map(([id]) => messages.get(id))
    .filter((m): m is StoredMessage => m !== undefined);
  const groups = conversations(scored, maxGapMs);
  const totals = groups.map((g) =>
    g
      .map((m) => scores.get(m.messageId) ?? 0)
      .sort((a, b) => b - a)
      .slice(0, CONVERSATION_TOP_MESSAGES)
      .reduce((a, b) => a + b, 0),
  );
  const best = Math.max(0, ...totals);
  if (best <= 0) return out;
  groups.forEach((g, i) => {
    const share = (totals[i] ?? 0) / best;
    for (const m of g) out.set(m.messageId, ((scores.get(m.messageId) ?? 0) + weight * share) / (1 + weight));
  });
  return out;
}

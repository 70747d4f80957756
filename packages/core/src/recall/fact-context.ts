import type { Fact } from '../model/fact.js';
import type { ScoredFact } from './recall-types.js';

/**
 * Where and when a fact was said: its primary source message; without sources (a fact given to
 * `facts.remember` with the channel it was learned in), that one channel at `observedAt`. Null
 * when neither says where (no channel, or several).
 */
function origin(fact: Fact): { readonly channelId: string; readonly at: number } | null {
  const s = fact.sources.find((x) => x.role === 'primary') ?? fact.sources[0];
  if (s) return { channelId: s.channelId, at: (s.createdAt ?? fact.observedAt).getTime() };
  const only = fact.channels.length === 1 ? fact.channels[0] : undefined;
  return only ? { channelId: only.channelId, at: fact.observedAt.getTime() } : null;
}

/** Both directions along a channel's time line. */
const DIRECTIONS = [-1, 1] as const;

/**
 * Conversation-context smoothing for facts, the fact-level twin of message neighbour smoothing:
 * facts whose primary sources (or, for a fact without sources, its one channel and observedAt)
 * lie in the same channel within `maxGapMs` of each other come from one conversation and share
 * its context. A fact is pulled towards the best score among its
 * conversation neighbours in the list: score' = score + w / (1 + w) × max(0, best − score).
 * Context only helps (a fact with no better neighbour, or no place and time of its own, keeps its score) and scores
 * stay in [0, 1]. The neighbour score is exposed as `components.context`. Returns a new list
 * sorted by the new score (stable).
 */
export function smoothByConversation(
  items: readonly ScoredFact[],
  weight: number,
  maxGapMs: number,
): ScoredFact[] {
  if (weight <= 0 || items.length < 2) return [...items];
  const byChannel = new Map<string, { i: number; at: number }[]>();
  items.forEach((item, i) => {
    const o = origin(item.fact);
    if (!o) return;
    const list = byChannel.get(o.channelId) ?? [];
    list.push({ i, at: o.at });
    byChannel.set(o.channelId, list);
  });
  const best = new Array<number>(items.length).fill(0);
  for (const list of byChannel.values()) {
    list.sort((a, b) => a.at - b.at);
    for (let x = 0; x < list.length; x++) {
      const me = list[x] as { i: number; at: number };
      for (const dir of DIRECTIONS)
        for (let y = x + dir; y >= 0 && y < list.length; y += dir) {
          const other = list[y] as { i: number; at: number };
          if (Math.abs(other.at - me.at) > maxGapMs) break;
          best[me.i] = Math.max(best[me.i] as number, (items[other.i] as ScoredFact).score);
        }
    }
  }
  return items
    .map((item, i) => {
      const context = best[i] as number;
      const lift = (weight / (1 + weight)) * Math.max(0, context - item.score);
      const score = Math.round((item.score + lift) * 1e6) / 1e6;
      return { ...item, score, components: { ...item.components, context } };
    })
    .sort((a, b) => b.score - a.score); // stable: equal scores keep the input order
}

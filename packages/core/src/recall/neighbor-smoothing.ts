import type { StoredMessage } from '../model/message.js';

/** Options of neighbour smoothing (see `retrieval.neighbor*`). */
export interface SmoothingOptions {
  /** Share of a neighbour's score received per step; step d contributes weight^d. */
  readonly weight: number;
  /** Messages considered on each side. */
  readonly window: number;
  /** Consecutive messages further apart than this break the chain (a new conversation). */
  readonly maxGapMs: number;
}

/**
 * A window of consecutive messages of one channel around an anchor (its predecessors, the
 * anchor, its successors), oldest first: `chain[i]` is immediately before `chain[i + 1]`.
 */
export type MessageChain = readonly StoredMessage[];

/** d steps apart in one channel with no larger gap between: (earlier, later, d). */
interface Adjacency {
  readonly earlier: string;
  readonly later: string;
  readonly distance: number;
}

/**
 * Splits messages (in channel, then time order) where consecutive ones change channel or lie
 * further apart than maxGapMs: the conversations neighbour smoothing and the conversation boost see.
 */
export function gapFreeRuns(chain: MessageChain, maxGapMs: number): StoredMessage[][] {
  const runs: StoredMessage[][] = [];
  let run: StoredMessage[] = [];
  for (const m of chain) {
    const prev = run[run.length - 1];
    if (
      prev &&
      (prev.channelId !== m.channelId || m.createdAt.getTime() - prev.createdAt.getTime() > maxGapMs)
    ) {
      runs.push(run);
      run = [];
    }
    run.push(m);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/**
 * Pairs of messages at most `window` steps apart in a gap-free run, joined by an exchange: the
 * span from one to the other holds at least two authors (a message and its reply, or two turns
 * of one author with the other side's turn between them). A single author's consecutive
 * messages — a monologue, or a channel that holds only one side of a conversation — are separate
 * statements and do not lift each other.
 */
function adjacencies(chains: readonly MessageChain[], opts: SmoothingOptions): Adjacency[] {
  const seen = new Set<string>();
  const out: Adjacency[] = [];
  for (const chain of chains)
    for (const run of gapFreeRuns(chain, opts.maxGapMs))
      for (let i = 0; i < run.length; i++) {
        const author = (run[i] as StoredMessage).authorId;
        let exchange = false;
        for (let j = i + 1; j < run.length && j - i <= opts.window; j++) {
          if ((run[j] as StoredMessage).authorId !== author) exchange = true;
          if (!exchange) continue;
          const earlier = (run[i] as StoredMessage).messageId;
          const later = (run[j] as StoredMessage).messageId;
          const k = `${earlier}\u0000${later}`;
          if (seen.has(k)) continue;
          seen.add(k);
          out.push({ earlier, later, distance: j - i });
        }
      }
  return out;
}

/**
 * Neighbour smoothing: each message receives weight^d × the base score of every message d steps
 * before or after it (d ≤ window) across an exchange (see `adjacencies`), since the turns of a
 * conversation share context. The
 * result is divided by 1 + 2 Σ weight^d so scores stay in [0, 1]. Messages with no base score
 * (known only as neighbours) get a score from their neighbours alone. Returns the context part
 * (already normalised) per message id.
 */
export function smoothScores(
  base: ReadonlyMap<string, number>,
  chains: readonly MessageChain[],
  opts: SmoothingOptions,
): { readonly scores: Map<string, number>; readonly context: Map<string, number> } {
  let norm = 1;
  for (let d = 1; d <= opts.window; d++) norm += 2 * opts.weight ** d;
  const context = new Map<string, number>();
  if (opts.weight > 0 && opts.window > 0)
    for (const adj of adjacencies(chains, opts)) {
      const w = opts.weight ** adj.distance;
      const fromLater = w * (base.get(adj.later) ?? 0);
      const fromEarlier = w * (base.get(adj.earlier) ?? 0);
      if (fromLater > 0) context.set(adj.earlier, (context.get(adj.earlier) ?? 0) + fromLater);
      if (fromEarlier > 0) context.set(adj.later, (context.get(adj.later) ?? 0) + fromEarlier);
    }
  const scores = new Map<string, number>();
  const ids = new Set([...base.keys(), ...context.keys()]);
  for (const id of ids) {
    const c = (context.get(id) ?? 0) / norm;
    context.set(id, c);
    scores.set(id, (base.get(id) ?? 0) / norm + c);
  }
  return { scores, context };
}

import { ChannelName, EdgeKind } from '../model/enums.js';
import type { Link } from '../model/graph.js';
import type { ChannelContext, ChannelHit, ChannelList } from './channel-types.js';

/** Facts about a node rank before facts it merely said or was mentioned in. */
const KIND_ORDER: Readonly<Record<string, number>> = {
  [EdgeKind.SUBJECT_OF]: 0,
  [EdgeKind.ABOUT_USER]: 1,
  [EdgeKind.ABOUT_ENTITY]: 1,
  [EdgeKind.MENTIONED_WITH]: 2,
  [EdgeKind.SPEAKER_OF]: 3,
};

/** Distinct fact ids of links, ordered by link kind then newest fact first. */
export function rankLinks(links: readonly Link[], limit: number): ChannelHit[] {
  const best = new Map<string, number>();
  for (const l of links) {
    const order = KIND_ORDER[l.kind] ?? 4;
    const prev = best.get(l.factId);
    if (prev === undefined || order < prev) best.set(l.factId, order);
  }
  return [...best.entries()]
    .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0))
    .slice(0, limit)
    .map(([factId]) => ({ factId, score: 0 }));
}

/** Links channel: facts incident on the subjects (and on the person entities that are their twins). */
export async function linksChannel(ctx: ChannelContext): Promise<ChannelList> {
  const subjectNodes = await ctx.subjectNodes;
  if (subjectNodes.length === 0) return { channel: ChannelName.LINKS, hits: [] };
  // With pairs, the pair channel reads the same members' links with the pool size: read once.
  const readAhead = ctx.pairs.length > 0 ? Math.max(ctx.limit, ctx.deps.retrieval.poolSize) : ctx.limit;
  const links = await ctx.session.linksForNodes(
    ctx.guildId,
    subjectNodes,
    { validity: ctx.validity, limitPerNode: ctx.limit },
    readAhead,
  );
  return { channel: ChannelName.LINKS, hits: rankLinks(links, ctx.limit * 2) };
}

/**
 * Baseline channel: the strongest facts of each subject (server scope: of the server; guild scope
 * without text: of the guild), so a subject is represented even when the text matches nothing.
 */
export async function baselineChannel(ctx: ChannelContext): Promise<ChannelList> {
  const facts = ctx.deps.store.facts;
  const validity = ctx.validity;
  let found: Awaited<ReturnType<typeof facts.topStrength>>;
  if (ctx.subjectIds.length > 0) {
    const perSubject = await Promise.all(
      ctx.subjectIds.map((s) =>
        facts.topStrength({ guildId: ctx.guildId, subjectIds: [s], validity }, ctx.maxPerSubject),
      ),
    );
    // Interleave so every subject has an early rank.
    found = [];
    for (let i = 0; i < ctx.maxPerSubject; i++)
      for (const list of perSubject) {
        const f = list[i];
        if (f) found.push(f);
      }
  } else if (ctx.filter.serverOnly) {
    found = await facts.topStrength({ guildId: ctx.guildId, serverOnly: true, validity }, ctx.maxPerSubject);
  } else if (ctx.text === null) {
    found = await facts.topStrength({ guildId: ctx.guildId, validity }, ctx.limit);
  } else {
    found = [];
  }
  return {
    channel: ChannelName.BASELINE,
    hits: found.map((f) => ({ factId: f.id, score: f.strength, fact: f })),
  };
}

/** Pair channel: facts linked to both members of each pair (twins included). */
export async function pairChannel(ctx: ChannelContext, perNode: number): Promise<ChannelList> {
  const session = ctx.session;
  const pairs = ctx.pairs.filter(([a, b]) => a !== b);
  const lists = await Promise.all(
    pairs.map(async ([a, b]) => {
      const [na, nb] = await Promise.all([
        session.nodesOfUsers(ctx.guildId, [a]),
        session.nodesOfUsers(ctx.guildId, [b]),
      ]);
      const [la, lb] = await Promise.all([
        session.linksForNodes(ctx.guildId, na.nodes, { validity: ctx.validity, limitPerNode: perNode }),
        session.linksForNodes(ctx.guildId, nb.nodes, { validity: ctx.validity, limitPerNode: perNode }),
      ]);
      const inB = new Set(lb.map((l) => l.factId));
      return rankLinks(
        la.filter((l) => inB.has(l.factId)),
        ctx.limit,
      );
    }),
  );
  const seen = new Set<string>();
  const hits: ChannelHit[] = [];
  for (let i = 0; i < ctx.limit; i++)
    for (const list of lists) {
      const h = list[i];
      if (h && !seen.has(h.factId)) {
        seen.add(h.factId);
        hits.push(h);
      }
    }
  return { channel: ChannelName.PAIR, hits };
}

import { entityNode } from '../graph/identity-collapse.js';
import { decideAliases } from '../identity/resolution.js';
import { ChannelName } from '../model/enums.js';
import type { Alias, Entity, NodeRef } from '../model/graph.js';
import type { ChannelContext, ChannelList, NamedTargets } from './channel-types.js';
import { longestMatches, ngrams, queryWords } from './query-ngrams.js';
import { rankLinks } from './subject-channels.js';

/** Member names are looked up up to this many words long, at most this many lookups per query. */
const MEMBER_NGRAM = 3;
const MAX_MEMBER_LOOKUPS = 24;
/** Alias matches read per n-gram (enough to tell an unambiguous name from a shared one). */
const MEMBER_MATCHES = 8;

export interface EntityChannelResult {
  readonly list: ChannelList;
  readonly targets: NamedTargets;
}

const emptyTargets: NamedTargets = { userIds: new Set(), entitySlugs: new Set() };

async function linkedFacts(
  ctx: ChannelContext,
  channel: ChannelName,
  users: ReadonlySet<string>,
  slugs: ReadonlySet<string>,
): Promise<ChannelList> {
  const twins = await ctx.session.nodesOfUsers(ctx.guildId, [...users]);
  const nodes: NodeRef[] = [...twins.nodes];
  for (const s of slugs) if (!twins.owners.has(s)) nodes.push(entityNode(s));
  if (nodes.length === 0) return { channel, hits: [] };
  const links = await ctx.session.linksForNodes(ctx.guildId, nodes, {
    validity: ctx.validity,
    limitPerNode: ctx.limit,
  });
  return { channel, hits: rankLinks(links, ctx.limit) };
}

/**
 * Entity channel: the longest n-grams of the query (up to 4 words) that are entity aliases or
 * unambiguous member names; facts linked to what they name. A person entity linked to a member
 * counts as that member. It does not depend on the recall's scope, so the recalls of one session
 * with the same text, validity and limit share one result.
 */
export function entityChannel(ctx: ChannelContext): Promise<EntityChannelResult> {
  const text = ctx.text;
  if (text === null)
    return Promise.resolve({ list: { channel: ChannelName.ENTITY, hits: [] }, targets: emptyTargets });
  const validity = typeof ctx.validity === 'string' ? ctx.validity : ctx.validity.asOf.getTime();
  return ctx.session.memo(`entity\u0000${ctx.guildId}\u0000${validity}\u0000${ctx.limit}\u0000${text}`, () =>
    namedFacts(ctx, text),
  );
}

async function namedFacts(ctx: ChannelContext, text: string): Promise<EntityChannelResult> {
  const { graph, aliases } = ctx.deps.store;
  const grams = ngrams(queryWords(text));
  if (grams.length === 0) return { list: { channel: ChannelName.ENTITY, hits: [] }, targets: emptyTargets };
  const memberGrams = grams.filter((g) => g.size <= MEMBER_NGRAM).slice(-MAX_MEMBER_LOOKUPS);
  const [entityRows, memberRows] = await Promise.all([
    graph.findEntitiesByAlias(
      ctx.guildId,
      grams.map((g) => g.text),
    ),
    memberGrams.length > 0
      ? aliases.findMany(
          ctx.guildId,
          memberGrams.map((g) => g.text),
          MEMBER_MATCHES,
        )
      : new Map<string, Alias[]>(),
  ]);
  const entitiesByAlias = new Map<string, Set<string>>();
  for (const r of entityRows) {
    const set = entitiesByAlias.get(r.alias) ?? new Set<string>();
    set.add(r.slug);
    entitiesByAlias.set(r.alias, set);
  }
  const memberByAlias = new Map<string, string>();
  for (const g of memberGrams) {
    const resolution = decideAliases(g.text, memberRows.get(g.text) ?? [], 'exact');
    if (resolution.resolved !== null && !ctx.deps.isBot(resolution.resolved))
      memberByAlias.set(g.text, resolution.resolved);
  }
  const matched = longestMatches(grams, (t) => entitiesByAlias.has(t) || memberByAlias.has(t));
  const users = new Set<string>();
  const slugs = new Set<string>();
  for (const g of matched) {
    const member = memberByAlias.get(g.text);
    if (member !== undefined) users.add(member);
    for (const s of entitiesByAlias.get(g.text) ?? []) slugs.add(s);
  }
  if (users.size === 0 && slugs.size === 0)
    return { list: { channel: ChannelName.ENTITY, hits: [] }, targets: emptyTargets };
  for (const e of slugs.size > 0 ? await graph.getEntities(ctx.guildId, [...slugs]) : [])
    if (e.linkedUserId !== null && !ctx.deps.isBot(e.linkedUserId)) users.add(e.linkedUserId);
  const list = await linkedFacts(ctx, ChannelName.ENTITY, users, slugs);
  return { list, targets: { userIds: users, entitySlugs: slugs } };
}

/** Entity-hint channel: facts linked to the hinted entity (or the member it is the twin of). */
export async function entityHintChannel(
  ctx: ChannelContext,
  entity: Entity | null,
): Promise<EntityChannelResult> {
  if (entity === null) return { list: { channel: ChannelName.ENTITY_HINT, hits: [] }, targets: emptyTargets };
  const users = new Set<string>(entity.linkedUserId === null ? [] : [entity.linkedUserId]);
  const slugs = new Set<string>([entity.slug]);
  const list = await linkedFacts(ctx, ChannelName.ENTITY_HINT, users, slugs);
  return { list, targets: { userIds: users, entitySlugs: slugs } };
}

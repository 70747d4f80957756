import { type Alias, type Memory, normalizeAlias, type Relation } from '@permafrost/core';

/**
 * Bridges to memory groups that are landing in core (`identity`, `graph`). When a group exists
 * it is used; until then these fall back to what the current facade offers. Only this file
 * knows the difference.
 */

export interface NameResolution {
  readonly resolved: string | null;
  readonly ambiguous: boolean;
  readonly candidates: readonly { readonly userId: string }[];
}

interface IdentityGroup {
  resolve(input: { guildId: string; identifier: string }): Promise<NameResolution>;
  registerAlias(input: {
    guildId: string;
    userId: string;
    alias: string;
    source?: 'manual';
  }): Promise<unknown>;
  handleMemberRename(input: { guildId: string; userId: string; displayName: string }): Promise<unknown>;
  aliasesOf(input: { guildId: string; userId: string }): Promise<readonly Alias[]>;
}

/** A relation as the graph reads it (identity-collapsed when `memory.graph` exists). */
export interface EdgeView {
  readonly src: { readonly type: string; readonly id: string };
  readonly dst: { readonly type: string; readonly id: string };
  readonly verb: string;
  readonly polarity: string;
}

/** An entity two members both relate to, with each member's edges to it (input order). */
export interface SharedView {
  readonly slug: string;
  readonly name: string;
  readonly edges: readonly (readonly EdgeView[])[];
}

interface GraphGroup {
  relationsOf(input: { guildId: string; userId: string; limit?: number }): Promise<readonly EdgeView[]>;
  shared(input: { guildId: string; a: string; b: string; limit?: number }): Promise<readonly SharedView[]>;
}

const toEdge = (r: Relation): EdgeView => ({
  src: { type: r.srcType, id: r.srcId },
  dst: { type: r.dstType, id: r.dstId },
  verb: r.verb,
  polarity: r.polarity,
});

const identityOf = (memory: Memory) => (memory as { identity?: IdentityGroup }).identity;
const graphOf = (memory: Memory) => (memory as { graph?: GraphGroup }).graph;

const MENTION = /^<@!?(\d{5,25})>$/;
const SNOWFLAKE = /^\d{15,25}$/;

/** Records a member's new display name as an alias of the same user. */
export async function recordRename(
  memory: Memory,
  input: { guildId: string; userId: string; displayName: string },
): Promise<void> {
  const identity = identityOf(memory);
  if (identity) await identity.handleMemberRename(input);
  else
    await memory.ops.backfillAliases({
      guildId: input.guildId,
      members: [{ userId: input.userId, displayName: input.displayName }],
    });
}

/** Registers a name a member asked to be known by. */
export async function registerAlias(
  memory: Memory,
  input: { guildId: string; userId: string; alias: string },
): Promise<void> {
  const identity = identityOf(memory);
  if (identity) await identity.registerAlias({ ...input, source: 'manual' });
  else
    await memory.ops.backfillAliases({
      guildId: input.guildId,
      members: [{ userId: input.userId, displayName: input.alias }],
    });
}

export async function aliasesOf(
  memory: Memory,
  input: { guildId: string; userId: string },
): Promise<readonly Alias[]> {
  const identity = identityOf(memory);
  if (identity) return identity.aliasesOf(input);
  return (await memory.admin.exportUser(input)).aliases;
}

/** Typed name → member: a mention or id is itself; a name shared by several members is ambiguous. */
export async function resolveName(
  memory: Memory,
  input: { guildId: string; identifier: string },
): Promise<NameResolution> {
  const identity = identityOf(memory);
  const raw = input.identifier.trim();
  const id = MENTION.exec(raw)?.[1] ?? (SNOWFLAKE.test(raw) ? raw : undefined);
  if (id) return { resolved: id, ambiguous: false, candidates: [{ userId: id }] };
  if (identity) return identity.resolve({ guildId: input.guildId, identifier: raw });
  const wanted = normalizeAlias(raw);
  const { aliases } = await memory.admin.exportGuild({ guildId: input.guildId });
  const users = [...new Set(aliases.filter((a) => a.alias === wanted).map((a) => a.userId))];
  const candidates = users.map((userId) => ({ userId }));
  return {
    resolved: users.length === 1 ? (users[0] ?? null) : null,
    ambiguous: users.length > 1,
    candidates,
  };
}

/** A member's relations (both directions), strongest first. */
export async function relationsOf(
  memory: Memory,
  input: { guildId: string; userId: string; limit: number },
): Promise<readonly EdgeView[]> {
  const graph = graphOf(memory);
  if (graph) return graph.relationsOf(input);
  const { relations } = await memory.admin.exportUser(input);
  return [...relations]
    .filter((r) => r.validUntil === null)
    .sort((x, y) => y.weight - x.weight)
    .slice(0, input.limit)
    .map(toEdge);
}

/** Entities both members have a relation to, with each side's relations. */
export async function sharedEntities(
  memory: Memory,
  input: { guildId: string; a: string; b: string; limit: number },
): Promise<readonly SharedView[]> {
  const graph = graphOf(memory);
  if (graph) return graph.shared(input);
  const [left, right] = await Promise.all(
    [input.a, input.b].map((userId) => relationsOf(memory, { guildId: input.guildId, userId, limit: 500 })),
  );
  const towards = (edges: readonly EdgeView[] | undefined, userId: string, slug: string) =>
    (edges ?? []).filter((e) => e.src.id === userId && e.dst.type === 'entity' && e.dst.id === slug);
  const slugs = [...new Set((left ?? []).filter((e) => e.dst.type === 'entity').map((e) => e.dst.id))];
  return slugs
    .map((slug) => ({
      slug,
      name: slug,
      edges: [towards(left, input.a, slug), towards(right, input.b, slug)],
    }))
    .filter((s) => s.edges.every((e) => e.length > 0))
    .slice(0, input.limit);
}

interface Citer {
  cite(reply: string, ctx: unknown): Promise<{ readonly text: string }>;
}

/** `memory.cite(reply, ctx)` (similarity attribution); without it, the text stays uncited. */
export async function citeReply(memory: Memory, text: string, ctx: unknown): Promise<string> {
  const citer = memory as Partial<Citer>;
  if (typeof citer.cite !== 'function') return text;
  return (await citer.cite(text, ctx)).text;
}

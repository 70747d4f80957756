import type { Alias, Digest, Entity, Fact, GuildExport, Memory } from '@permafrost/core';

/** One member as the inspector shows them; opted-out members keep only their id and state. */
export interface MemberView {
  readonly userId: string;
  /** Best name first (highest alias weight); empty when opted out. */
  readonly aliases: readonly Alias[];
  readonly optedOut: boolean;
  readonly digest: Digest | null;
  /** Active facts about them. */
  readonly activeFacts: number;
}

/** What the inspector may show of a guild: the export with opted-out members' data left out. */
export interface GuildView {
  readonly guildId: string;
  readonly members: readonly MemberView[];
  /** Facts (any validity) whose subject and speaker have not opted out. */
  readonly facts: readonly Fact[];
  readonly entities: ReadonlyMap<string, Entity>;
  readonly optOuts: ReadonlySet<string>;
  /** Display name of a member (best alias), or the id. */
  nameOf(userId: string | null): string;
}

const isActive = (f: Fact) => f.validUntil === null && f.supersededById === null;

/**
 * Builds the view from `admin.exportGuild`: every fact about or stated by a member who opted out,
 * their aliases and their digest are dropped here, in one place, before any page renders.
 */
export function guildView(snapshot: GuildExport): GuildView {
  const optOuts = new Set(snapshot.optOuts.map((o) => o.userId));
  const hidden = (id: string | null) => id !== null && optOuts.has(id);
  const facts = snapshot.facts.filter((f) => !hidden(f.subjectId) && !hidden(f.attribution.speakerId));
  const aliases = new Map<string, Alias[]>();
  for (const a of snapshot.aliases) {
    if (hidden(a.userId)) continue;
    aliases.set(a.userId, [...(aliases.get(a.userId) ?? []), a]);
  }
  for (const list of aliases.values())
    list.sort((x, y) => y.weight - x.weight || (x.alias < y.alias ? -1 : 1));
  const ids = new Set<string>([...aliases.keys(), ...optOuts]);
  for (const f of facts) if (f.subjectId !== null) ids.add(f.subjectId);
  const members = [...ids].sort().map(
    (userId): MemberView => ({
      userId,
      aliases: aliases.get(userId) ?? [],
      optedOut: optOuts.has(userId),
      digest: hidden(userId) ? null : (snapshot.digests.find((d) => d.subjectId === userId) ?? null),
      activeFacts: facts.filter((f) => f.subjectId === userId && isActive(f)).length,
    }),
  );
  const byId = new Map(members.map((m) => [m.userId, m]));
  return {
    guildId: snapshot.guildId,
    members,
    facts,
    entities: new Map(snapshot.entities.map((e) => [e.slug, e])),
    optOuts,
    nameOf(userId) {
      if (userId === null) return 'server';
      return byId.get(userId)?.aliases[0]?.alias ?? userId;
    },
  };
}

export async function loadGuildView(memory: Memory, guildId: string): Promise<GuildView> {
  return guildView(await memory.admin.exportGuild({ guildId }));
}

import {
  ADMINISTRATOR,
  type ChannelOverwrites,
  canView,
  type GuildPermissions,
  type Overwrite,
  type Principal,
  VIEW_CHANNEL,
} from './view-permission.js';

/** A member as the cache knows them: id and role ids. */
export interface KnownMember {
  readonly id: string;
  readonly roleIds: readonly string[];
}

/** Both channels whose viewers are compared (for threads, the channel whose permissions apply). */
export interface ChannelPair {
  readonly reply: ChannelOverwrites;
  readonly source: ChannelOverwrites;
}

const seesReplyNotSource = (guild: GuildPermissions, pair: ChannelPair, who: Principal): boolean =>
  canView(guild, pair.reply, who) && !canView(guild, pair.source, who);

/** Every listed member who can view the reply channel can view the source (use with a complete member list). */
export function membersSubset(
  guild: GuildPermissions,
  pair: ChannelPair,
  members: Iterable<KnownMember>,
): boolean {
  for (const m of members)
    if (seesReplyNotSource(guild, pair, { roleIds: m.roleIds, memberId: m.id })) return false;
  return true;
}

/**
 * The same question without a member list: true only when no possible member (any combination of
 * the guild's roles, with or without one of the member overwrites of either channel) can view the
 * reply channel without viewing the source. Members with a member overwrite whose roles the cache
 * knows are checked with their actual roles.
 *
 * Visibility depends on a role set only through the OR of a few bits of its roles (base View and
 * Administrator, View allowed/denied by its overwrite in either channel), and each way of seeing the
 * reply channel but not the source needs at most one role for each side, so role sets of up to two
 * roles, one per distinct bit pattern, cover every case.
 */
export function rolesSubset(
  guild: GuildPermissions,
  pair: ChannelPair,
  knownMember: (id: string) => KnownMember | undefined,
): boolean {
  const sets = roleSets(representativeRoles(guild, pair));
  const anyMember = (memberId?: string): boolean =>
    sets.every(
      (roleIds) =>
        !seesReplyNotSource(guild, pair, memberId === undefined ? { roleIds } : { roleIds, memberId }),
    );
  if (!anyMember()) return false;
  for (const memberId of representativeMembers(guild, pair, knownMember)) {
    const known = knownMember(memberId);
    if (known ? seesReplyNotSource(guild, pair, { roleIds: known.roleIds, memberId }) : !anyMember(memberId))
      return false;
  }
  return true;
}

const viewBits = (o: Overwrite | undefined): string =>
  o === undefined
    ? '--'
    : `${(o.allow & VIEW_CHANNEL) !== 0n ? 'a' : '-'}${(o.deny & VIEW_CHANNEL) !== 0n ? 'd' : '-'}`;

const findOverwrite = (overwrites: ChannelOverwrites, type: Overwrite['type'], id: string) =>
  overwrites.find((o) => o.type === type && o.id === id);

/** One role per distinct (base View, Administrator, overwrite in reply, overwrite in source) pattern. */
function representativeRoles(guild: GuildPermissions, pair: ChannelPair): string[] {
  const ids = new Set(guild.roles.keys());
  for (const o of [...pair.reply, ...pair.source]) if (o.type === 'role') ids.add(o.id);
  ids.delete(guild.guildId);
  const bySignature = new Map<string, string>();
  for (const id of ids) {
    const base = guild.roles.get(id) ?? 0n;
    const signature = [
      (base & VIEW_CHANNEL) !== 0n,
      (base & ADMINISTRATOR) !== 0n,
      viewBits(findOverwrite(pair.reply, 'role', id)),
      viewBits(findOverwrite(pair.source, 'role', id)),
    ].join('|');
    if (signature !== 'false|false|--|--' && !bySignature.has(signature)) bySignature.set(signature, id);
  }
  return [...bySignature.values()];
}

/** The empty set, every single role, every pair. */
function roleSets(roles: readonly string[]): string[][] {
  const sets: string[][] = [[]];
  roles.forEach((a, i) => {
    sets.push([a]);
    for (const b of roles.slice(i + 1)) sets.push([a, b]);
  });
  return sets;
}

/** Members (not the owner) with an overwrite in either channel: every known one, one unknown one per overwrite pattern. */
function representativeMembers(
  guild: GuildPermissions,
  pair: ChannelPair,
  knownMember: (id: string) => KnownMember | undefined,
): string[] {
  const ids = new Set<string>();
  for (const o of [...pair.reply, ...pair.source]) if (o.type === 'member') ids.add(o.id);
  const picked: string[] = [];
  const unknownSignatures = new Set<string>();
  ids.delete(guild.ownerId); // sees every channel
  for (const id of ids) {
    if (knownMember(id)) {
      picked.push(id);
      continue;
    }
    const signature = `${viewBits(findOverwrite(pair.reply, 'member', id))}|${viewBits(findOverwrite(pair.source, 'member', id))}`;
    if (unknownSignatures.has(signature)) continue;
    unknownSignatures.add(signature);
    picked.push(id);
  }
  return picked;
}

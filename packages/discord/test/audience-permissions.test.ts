import { describe, expect, it } from 'vitest';
import {
  ADMINISTRATOR,
  canView,
  type GuildPermissions,
  type Overwrite,
  VIEW_CHANNEL,
} from '../src/audience/view-permission.js';
import { type KnownMember, membersSubset, rolesSubset } from '../src/audience/viewer-subset.js';

const GUILD = '100';
const OWNER = '900';
const V = VIEW_CHANNEL;

const guildWith = (roles: Record<string, bigint>, everyone = V): GuildPermissions => ({
  guildId: GUILD,
  ownerId: OWNER,
  roles: new Map(Object.entries(roles)),
  everyone,
});
const role = (id: string, allow = 0n, deny = 0n): Overwrite => ({ id, type: 'role', allow, deny });
const member = (id: string, allow = 0n, deny = 0n): Overwrite => ({ id, type: 'member', allow, deny });

describe('canView: Discord overwrite order', () => {
  const g = guildWith({ mods: 0n, helpers: 0n, admins: ADMINISTRATOR });

  it('applies @everyone, then all role denies, then all role allows, then the member overwrite', () => {
    const modsOnly = [role(GUILD, 0n, V), role('mods', V)];
    expect(canView(g, modsOnly, { roleIds: [] })).toBe(false);
    expect(canView(g, modsOnly, { roleIds: ['mods'] })).toBe(true);
    // one role's allow beats another role's deny
    expect(canView(g, [role('helpers', 0n, V), role('mods', V)], { roleIds: ['mods', 'helpers'] })).toBe(
      true,
    );
    // a role deny beats an @everyone allow
    expect(canView(g, [role(GUILD, V), role('helpers', 0n, V)], { roleIds: ['helpers'] })).toBe(false);
    // the member overwrite has the last word, both ways
    expect(canView(g, [...modsOnly, member('u1', 0n, V)], { roleIds: ['mods'], memberId: 'u1' })).toBe(false);
    expect(canView(g, [...modsOnly, member('u2', V)], { roleIds: [], memberId: 'u2' })).toBe(true);
    // a member overwrite for someone else does not apply
    expect(canView(g, [...modsOnly, member('u2', V)], { roleIds: [], memberId: 'u3' })).toBe(false);
  });

  it('lets Administrator and the owner through every overwrite', () => {
    const hidden = [role(GUILD, 0n, V), member('u1', 0n, V), member(OWNER, 0n, V)];
    expect(canView(g, hidden, { roleIds: ['admins'], memberId: 'u1' })).toBe(true);
    expect(canView(g, hidden, { roleIds: [], memberId: OWNER })).toBe(true);
    expect(canView(guildWith({}, V | ADMINISTRATOR), hidden, { roleIds: [] })).toBe(true);
  });

  it('gives View from a role when @everyone lacks it', () => {
    const g2 = guildWith({ readers: V }, 0n);
    expect(canView(g2, [], { roleIds: [] })).toBe(false);
    expect(canView(g2, [], { roleIds: ['readers'] })).toBe(true);
  });
});

describe('viewer subsets', () => {
  const g = guildWith({ mods: 0n, helpers: 0n });
  const mods = [role(GUILD, 0n, V), role('mods', V)];
  const staff = [role(GUILD, 0n, V), role('mods', V), role('helpers', V)];

  it('by roles: the smaller audience may see the larger one, not the reverse', () => {
    const none = () => undefined;
    expect(rolesSubset(g, { reply: mods, source: staff }, none)).toBe(true);
    expect(rolesSubset(g, { reply: staff, source: mods }, none)).toBe(false);
  });

  it('by roles: an unknown member with an overwrite counts with any roles, a known one with theirs', () => {
    const modsPlusAnn = [...mods, member('ann', V)];
    const known = (m: KnownMember) => (id: string) => (id === m.id ? m : undefined);
    expect(rolesSubset(g, { reply: modsPlusAnn, source: staff }, () => undefined)).toBe(false);
    expect(
      rolesSubset(g, { reply: modsPlusAnn, source: staff }, known({ id: 'ann', roleIds: ['helpers'] })),
    ).toBe(true);
    expect(rolesSubset(g, { reply: modsPlusAnn, source: staff }, known({ id: 'ann', roleIds: [] }))).toBe(
      false,
    );
  });

  it('by members: only actual members count', () => {
    const pair = { reply: staff, source: mods };
    expect(
      membersSubset(g, pair, [
        { id: 'a', roleIds: ['mods', 'helpers'] },
        { id: 'b', roleIds: [] },
      ]),
    ).toBe(true);
    expect(membersSubset(g, pair, [{ id: 'a', roleIds: ['helpers'] }])).toBe(false);
  });

  it('by roles: agrees with trying every role combination (random guilds)', () => {
    const random = mulberry32(23);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const viewOverwrite = (id: string, type: Overwrite['type']): Overwrite | undefined =>
      pick([undefined, undefined, { id, type, allow: V, deny: 0n }, { id, type, allow: 0n, deny: V }]);
    for (let round = 0; round < 400; round++) {
      const roleIds = ['r1', 'r2', 'r3', 'r4'].slice(0, 1 + Math.floor(random() * 4));
      const roles: Record<string, bigint> = {};
      for (const id of roleIds) roles[id] = pick([0n, 0n, V, random() < 0.1 ? ADMINISTRATOR : 0n]);
      const guild = guildWith(roles, pick([0n, V]));
      const overwrites = (): Overwrite[] =>
        [GUILD, ...roleIds, 'm1', 'm2', OWNER].flatMap((id) => {
          const o = viewOverwrite(id, id.startsWith('r') || id === GUILD ? 'role' : 'member');
          return o ? [o] : [];
        });
      const pair = { reply: overwrites(), source: overwrites() };
      const knownM1: KnownMember | undefined =
        random() < 0.5 ? { id: 'm1', roleIds: [pick(roleIds)] } : undefined;
      const lookup = (id: string) => (id === 'm1' ? knownM1 : undefined);
      expect(rolesSubset(guild, pair, lookup)).toBe(bruteForce(guild, pair, roleIds, knownM1));
    }
  });
});

/** Every subset of roles, anonymous and as each overwritten member (known ones with their roles). */
function bruteForce(
  guild: GuildPermissions,
  pair: { reply: Overwrite[]; source: Overwrite[] },
  roleIds: string[],
  known: KnownMember | undefined,
): boolean {
  const subsets = Array.from({ length: 1 << roleIds.length }, (_, mask) =>
    roleIds.filter((_, i) => mask & (1 << i)),
  );
  const leaks = (who: { roleIds: readonly string[]; memberId?: string }) =>
    canView(guild, pair.reply, who) && !canView(guild, pair.source, who);
  for (const ids of subsets) {
    if (leaks({ roleIds: ids })) return false;
    for (const memberId of ['m1', 'm2', OWNER]) {
      if (memberId === known?.id) continue;
      if (leaks({ roleIds: ids, memberId })) return false;
    }
  }
  return !(known && leaks({ roleIds: known.roleIds, memberId: known.id }));
}

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

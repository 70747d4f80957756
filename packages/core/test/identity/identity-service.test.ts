import { describe, expect, it } from 'vitest';
import { MemoryError } from '../../src/errors/index.js';
import { createIdentityService } from '../../src/identity/identity-service.js';
import { createRecallService } from '../../src/recall/recall-service.js';
import { G, G2, makeFact, seed, T0, world } from '../helpers/world.js';

const SNOW = '123456789012345678';

function setup() {
  const w = world();
  const identity = createIdentityService({ store: w.store, clock: w.clock, isBot: (id) => w.bots.has(id) });
  return { w, identity };
}

describe('identity.resolve', () => {
  it('walks the ladder: id, exact alias, prefix', async () => {
    const { identity } = setup();
    expect(await identity.resolve({ guildId: G, identifier: SNOW })).toMatchObject({
      resolved: SNOW,
      basis: 'id',
    });
    expect(await identity.resolve({ guildId: G, identifier: `<@!${SNOW}>` })).toMatchObject({
      resolved: SNOW,
    });
    await identity.registerAlias({ guildId: G, userId: 'u1', alias: 'Nolan Gregory', source: 'real_name' });
    expect(await identity.resolve({ guildId: G, identifier: '  nolan   GREGORY ' })).toMatchObject({
      resolved: 'u1',
      basis: 'exact',
      ambiguous: false,
    });
    expect(await identity.resolve({ guildId: G, identifier: 'nol' })).toMatchObject({
      resolved: 'u1',
      basis: 'prefix',
    });
    expect(await identity.resolve({ guildId: G, identifier: 'no' })).toMatchObject({
      resolved: null,
      basis: 'unresolved',
    });
    expect(await identity.resolve({ guildId: G2, identifier: 'nolan gregory' })).toMatchObject({
      resolved: null,
    });
  });

  it('returns ambiguous instead of guessing', async () => {
    const { identity } = setup();
    await identity.registerAlias({ guildId: G, userId: 'u1', alias: 'Sam', source: 'display_name' });
    await identity.registerAlias({ guildId: G, userId: 'u2', alias: 'Sam', source: 'display_name' });
    const r = await identity.resolve({ guildId: G, identifier: 'sam' });
    expect(r).toMatchObject({ resolved: null, ambiguous: true });
    expect(r.candidates.map((c) => c.userId).sort()).toEqual(['u1', 'u2']);
    // Prefix rivals within 85 % are ambiguous even with different sources.
    await identity.registerAlias({ guildId: G, userId: 'u3', alias: 'samantha', source: 'real_name' });
    await identity.registerAlias({ guildId: G, userId: 'u4', alias: 'samuel', source: 'display_name' });
    expect(await identity.resolve({ guildId: G, identifier: 'samu' })).toMatchObject({ resolved: 'u4' });
    expect(await identity.resolve({ guildId: G, identifier: 'sama' })).toMatchObject({ resolved: 'u3' });
    await identity.registerAlias({ guildId: G, userId: 'u5', alias: 'jonathan', source: 'real_name' });
    await identity.registerAlias({ guildId: G, userId: 'u6', alias: 'jonas', source: 'manual' });
    expect(await identity.resolve({ guildId: G, identifier: 'jona' })).toMatchObject({
      resolved: null,
      ambiguous: true,
    });
    await identity.registerAlias({ guildId: G, userId: 'u7', alias: 'jordan', source: 'real_name' });
    await identity.registerAlias({ guildId: G, userId: 'u8', alias: 'jorge', source: 'display_name' });
    expect(await identity.resolve({ guildId: G, identifier: 'jor' })).toMatchObject({
      resolved: 'u7',
      ambiguous: false,
    });
  });

  it('lets a higher-ranked exact source win outright', async () => {
    const { identity } = setup();
    await identity.registerAlias({ guildId: G, userId: 'u1', alias: 'kit', source: 'discord_username' });
    await identity.registerAlias({ guildId: G, userId: 'u2', alias: 'kit', source: 'display_name' });
    const r = await identity.resolve({ guildId: G, identifier: 'Kit' });
    expect(r).toMatchObject({ resolved: 'u1', ambiguous: false });
    expect(r.candidates[0]?.confidence).toBeGreaterThan(r.candidates[1]?.confidence ?? 1);
    expect(await identity.resolveMany({ guildId: G, identifiers: ['kit', SNOW] })).toHaveLength(2);
  });
});

describe('identity writes', () => {
  it('refuses digit strings, mention tags, bots and junk as aliases', async () => {
    const { w, identity } = setup();
    w.bots.add('bot');
    expect(await identity.registerAlias({ guildId: G, userId: 'u1', alias: SNOW })).toBe(false);
    expect(await identity.registerAlias({ guildId: G, userId: 'u1', alias: '1234567890' })).toBe(false);
    expect(await identity.registerAlias({ guildId: G, userId: 'u1', alias: `<@${SNOW}>` })).toBe(false);
    expect(await identity.registerAlias({ guildId: G, userId: 'u1', alias: 'x' })).toBe(false);
    expect(await identity.registerAlias({ guildId: G, userId: 'bot', alias: 'Helper' })).toBe(false);
    expect(await identity.aliasesOf({ guildId: G, userId: 'u1' })).toEqual([]);
    await expect(identity.resolve({ guildId: '', identifier: 'x' })).rejects.toSatisfy((e: unknown) =>
      MemoryError.is(e, 'SCHEMA_INVALID'),
    );
  });

  it('adds a rename as an alias and keeps every fact where it was', async () => {
    const { w, identity } = setup();
    const fact = makeFact({ text: 'Alice collects stamps', subjectId: 'u1' });
    await seed(w.store, w.embedder, [fact]);
    await identity.registerAlias({ guildId: G, userId: 'u1', alias: 'alice', source: 'discord_username' });
    expect(await identity.handleMemberRename({ guildId: G, userId: 'u1', displayName: 'Stamp Queen' })).toBe(
      true,
    );
    expect(await identity.handleMemberRename({ guildId: G, userId: 'u1', displayName: 'stamp queen' })).toBe(
      false,
    );
    expect((await identity.aliasesOf({ guildId: G, userId: 'u1' })).map((a) => a.alias)).toEqual([
      'alice',
      'stamp queen',
    ]);
    expect(await identity.displayName({ guildId: G, userId: 'u1' })).toBe('alice');
    expect(await identity.resolve({ guildId: G, identifier: 'Stamp Queen' })).toMatchObject({
      resolved: 'u1',
    });
    const r = await createRecallService(w.deps()).recall({ guildId: G, text: 'stamps', subjectIds: ['u1'] });
    expect(r.facts.map((f) => f.fact.id)).toEqual([fact.id]);
    expect(await identity.displayName({ guildId: G, userId: 'nobody' })).toBeNull();
  });

  it('links a person entity to the member its name uniquely resolves to, and unlinks on ambiguity', async () => {
    const { w, identity } = setup();
    await w.store.graph.upsertEntity({
      guildId: G,
      slug: 'nolan',
      name: 'Nolan',
      kind: 'person',
      aliases: ['nolan'],
      at: T0,
    });
    await w.store.graph.upsertEntity({
      guildId: G,
      slug: 'nolan-city',
      name: 'Nolan',
      kind: 'place',
      aliases: ['nolan'],
      at: T0,
    });
    await identity.registerAlias({ guildId: G, userId: 'u1', alias: 'Nolan' });
    const linked = await w.store.graph.getEntities(G, ['nolan', 'nolan-city']);
    expect(linked.map((e) => e.linkedUserId)).toEqual(['u1', null]);
    await identity.registerAlias({ guildId: G, userId: 'u2', alias: 'Nolan' });
    expect((await w.store.graph.getEntities(G, ['nolan']))[0]?.linkedUserId).toBeNull();
  });
});

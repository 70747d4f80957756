import { describe, expect, it } from 'vitest';
import { createPromptContextService } from '../../src/context/prompt-context-service.js';
import { createIdentityService } from '../../src/identity/identity-service.js';
import { RecallWarning } from '../../src/model/enums.js';
import type { Fact } from '../../src/model/fact.js';
import { createRecallService } from '../../src/recall/recall-service.js';
import { failing, G, G2, makeFact, seed, T0, withPort, world } from '../helpers/world.js';

const source = (messageId: string, channelId = 'c1') => ({
  messageId,
  channelId,
  authorId: 'u1',
  authorName: 'Alice',
  snippet: '',
  url: '',
  role: 'primary' as const,
  createdAt: T0,
});

function setup(retrieval: Record<string, unknown> = {}) {
  const w = world();
  const deps = w.deps(retrieval);
  const identity = createIdentityService({ store: w.store, clock: w.clock, isBot: deps.isBot });
  const service = createPromptContextService({
    recall: createRecallService(deps),
    identity,
    store: deps.store,
    embedder: deps.embedder,
    clock: deps.clock,
    retrieval: deps.retrieval,
    access: deps.access,
    isBot: deps.isBot,
  });
  return { w, identity, service };
}

async function people(identity: ReturnType<typeof createIdentityService>) {
  await identity.registerAlias({ guildId: G, userId: 'u1', alias: 'alice', source: 'discord_username' });
  await identity.registerAlias({ guildId: G, userId: 'u1', alias: 'Ali', source: 'display_name' });
  await identity.registerAlias({ guildId: G, userId: 'u2', alias: 'bob', source: 'discord_username' });
}

describe('promptContext', () => {
  it('builds labelled sections with tags, names, digest and server facts', async () => {
    const { w, identity, service } = setup();
    await people(identity);
    const asker = makeFact({ text: 'Alice is learning Rust', subjectId: 'u1', sources: [source('m1')] });
    const bob = makeFact({ text: 'Bob maintains a Rust crate', subjectId: 'u2', sources: [source('m2')] });
    const server = makeFact({ text: 'The server runs a Rust study group on Mondays', subjectId: null });
    await seed(w.store, w.embedder, [asker, bob, server]);
    await w.store.digests.putDigest({
      guildId: G,
      subjectId: 'u2',
      text: 'Bob is a systems programmer.',
      generatedAt: T0,
      sourceFactCount: 5,
      channels: null,
    });
    const ctx = await service.promptContext({
      guildId: G,
      askerId: 'u1',
      text: 'any rust tips?',
      mentionedIds: ['u2'],
    });
    const block = ctx.injectionBlock;
    expect(block.startsWith('[LONG-TERM MEMORY]')).toBe(true);
    expect(block).toContain('NOT the live conversation');
    expect(block).toMatch(
      /WHAT I KNOW ABOUT THE CURRENT ASKER \(alice\):\nCoreference: .*\n- \[mem:1\] Alice is learning Rust/,
    );
    expect(block).toContain('Coreference: alice, ali are all names of this ONE person.');
    expect(block).toContain(
      'REFERENCED USER: bob\nThese notes are about bob, not about the asker. Do not attribute them to the asker.',
    );
    expect(block).toContain('Summary: Bob is a systems programmer.');
    expect(block).toContain('- [mem:2] Bob maintains a Rust crate');
    expect(block).toMatch(/SERVER COMMUNITY FACTS:\n- \[mem:3\] The server runs a Rust study group/);
    expect(block.indexOf('ASKER')).toBeLessThan(block.indexOf('REFERENCED USER'));
    expect(ctx.citations.map((c) => [c.ref, c.factId, c.url])).toEqual([
      ['mem:1', asker.id, 'https://discord.com/channels/g1/c1/m1'],
      ['mem:2', bob.id, 'https://discord.com/channels/g1/c1/m2'],
      ['mem:3', server.id, null],
    ]);
    expect(ctx.facts.map((f) => f.fact.id)).toEqual([asker.id, bob.id, server.id]);
    expect(ctx.usage.promptTokens).toBe(Math.ceil(block.length / 4));
    expect(ctx.resolutions.map((r) => r.resolved)).toEqual(['u1', 'u2']);
    expect(ctx.warnings).toEqual([]);
  });

  it('shows third-party facts under their subject, never as the asker’s', async () => {
    const { w, identity, service } = setup();
    await people(identity);
    const hearsay = makeFact({
      text: 'Bob is allergic to peanuts',
      subjectId: 'u2',
      attribution: { type: 'third_party', speakerId: 'u1', speakerName: 'Alice', actorId: null },
    });
    const aboutAsker = makeFact({
      text: 'Alice sings in a choir',
      subjectId: 'u1',
      attribution: { type: 'third_party', speakerId: 'u2', speakerName: 'Bob', actorId: null },
    });
    await seed(w.store, w.embedder, [hearsay, aboutAsker]);
    const alone = await service.promptContext({ guildId: G, askerId: 'u1', text: 'peanuts allergy choir' });
    expect(alone.injectionBlock).not.toContain('peanuts');
    expect(alone.injectionBlock).toContain('Alice sings in a choir (according to bob)');
    const both = await service.promptContext({
      guildId: G,
      askerId: 'u1',
      text: 'peanuts',
      mentionedIds: ['u2'],
    });
    const askerPart = both.injectionBlock.slice(0, both.injectionBlock.indexOf('REFERENCED USER'));
    expect(askerPart).not.toContain('peanuts');
    expect(both.injectionBlock).toContain('Bob is allergic to peanuts (according to alice)');
  });

  it('resolves names among mentions and drops ambiguous ones with a warning', async () => {
    const { w, identity, service } = setup();
    await people(identity);
    await identity.registerAlias({ guildId: G, userId: 'u3', alias: 'Sam' });
    await identity.registerAlias({ guildId: G, userId: 'u4', alias: 'Sam' });
    await seed(w.store, w.embedder, [
      makeFact({ text: 'Bob plays bass', subjectId: 'u2' }),
      makeFact({ text: 'Sam three plays drums', subjectId: 'u3' }),
    ]);
    const ctx = await service.promptContext({
      guildId: G,
      askerId: 'u1',
      text: 'who plays what',
      mentionedIds: ['Bob', 'sam'],
    });
    expect(ctx.warnings).toContain(RecallWarning.IDENTITY_AMBIGUOUS);
    expect(ctx.injectionBlock).toContain('REFERENCED USER: bob');
    expect(ctx.injectionBlock).not.toContain('drums');
    expect(ctx.resolutions.find((r) => r.identifier === 'sam')).toMatchObject({
      ambiguous: true,
      resolved: null,
    });
  });

  it('drops bots and opted-out members', async () => {
    const { w, identity, service } = setup();
    await people(identity);
    w.bots.add('bot');
    await seed(w.store, w.embedder, [
      makeFact({ text: 'Bob likes cheese', subjectId: 'u2' }),
      makeFact({ text: 'Botty likes cheese', subjectId: 'bot' }),
      makeFact({ text: 'Alice likes cheese', subjectId: 'u1' }),
    ]);
    await w.store.consent.setOptOut(G, 'u2', true, T0);
    const ctx = await service.promptContext({
      guildId: G,
      askerId: 'u1',
      text: 'cheese',
      mentionedIds: ['u2', 'bot'],
    });
    expect(ctx.injectionBlock).toContain('Alice likes cheese');
    expect(ctx.injectionBlock).not.toMatch(/Bob|Botty/);
  });

  it('trims sections to the token budget with a warning', async () => {
    const { w, identity, service } = setup({ topK: 20, maxPerSubject: 20 });
    await people(identity);
    const facts: Fact[] = Array.from({ length: 12 }, (_, i) =>
      makeFact({
        text: `Alice has hobby number ${i} which involves a long description of knitting patterns`,
        subjectId: 'u1',
      }),
    );
    await seed(w.store, w.embedder, facts);
    const full = await service.promptContext({
      guildId: G,
      askerId: 'u1',
      text: 'knitting',
      tokenBudget: 5000,
    });
    expect(full.facts).toHaveLength(12);
    expect(full.warnings).not.toContain(RecallWarning.BUDGET_TRIMMED);
    const small = await service.promptContext({
      guildId: G,
      askerId: 'u1',
      text: 'knitting',
      tokenBudget: 250,
    });
    expect(small.injectionBlock.length).toBeLessThanOrEqual(250 * 4);
    expect(small.facts.length).toBeGreaterThan(0);
    expect(small.facts.length).toBeLessThan(12);
    expect(small.citations).toHaveLength(small.facts.length);
    expect(small.warnings).toContain(RecallWarning.BUDGET_TRIMMED);
  });

  it('applies citations as jump links and strips unknown tags', async () => {
    const { w, identity, service } = setup();
    await people(identity);
    await seed(w.store, w.embedder, [
      makeFact({ text: 'Alice runs marathons', subjectId: 'u1', sources: [source('m9', 'c7')] }),
      makeFact({ text: 'Alice owns a cat', subjectId: 'u1' }),
    ]);
    const ctx = await service.promptContext({ guildId: G, askerId: 'u1', text: 'marathons cat' });
    const withLink = ctx.citations.find((c) => c.url !== null);
    const without = ctx.citations.find((c) => c.url === null);
    const reply = `You run marathons [mem:${withLink?.index}] and have a cat [mem:${without?.index}] [mem:99].`;
    expect(ctx.applyCitations(reply)).toBe(
      'You run marathons [[' +
        withLink?.index +
        ']](<https://discord.com/channels/g1/c7/m9>) and have a cat.',
    );
  });

  it('cites reply sentences by similarity', async () => {
    const { w, identity, service } = setup();
    await people(identity);
    await seed(w.store, w.embedder, [
      makeFact({ text: 'Alice runs marathons in Berlin', subjectId: 'u1', sources: [source('m9')] }),
    ]);
    const ctx = await service.promptContext({ guildId: G, askerId: 'u1', text: 'marathons' });
    const cited = await ctx.cite('You run marathons in Berlin! The weather is nice.');
    expect(cited.claims).toHaveLength(1);
    expect(cited.text).toBe(
      'You run marathons in Berlin [[1]](<https://discord.com/channels/g1/c1/m9>)! The weather is nice.',
    );
    expect(cited.sources.map((c) => c.ref)).toEqual(['mem:1']);
  });

  it('never throws: bad input and store failures give an empty block and a warning', async () => {
    const { w, service } = setup();
    const bad = await service.promptContext({ guildId: G } as never);
    expect(bad).toMatchObject({ injectionBlock: '', warnings: [RecallWarning.QUERY_INVALID] });
    expect(bad.applyCitations('hi [mem:1]')).toBe('hi');
    const deps = w.deps();
    const store = withPort(w.store, 'consent', failing(w.store.consent, 'optedOutUsers'));
    const broken = createPromptContextService({
      recall: createRecallService({ ...deps, store }),
      identity: createIdentityService({ store, clock: w.clock, isBot: () => false }),
      store,
      embedder: deps.embedder,
      clock: deps.clock,
      retrieval: deps.retrieval,
      access: deps.access,
    });
    const down = await broken.promptContext({ guildId: G, askerId: 'u1', text: 'anything' });
    expect(down).toMatchObject({
      injectionBlock: '',
      facts: [],
      warnings: [RecallWarning.STORE_UNAVAILABLE],
    });
    expect((await down.cite('some reply')).text).toBe('some reply');
  });

  it('keeps guilds apart', async () => {
    const { w, identity, service } = setup();
    await people(identity);
    await identity.registerAlias({ guildId: G2, userId: 'u2', alias: 'bobby' });
    await seed(w.store, w.embedder, [
      makeFact({ text: 'Alice likes opera', subjectId: 'u1', guildId: G2 }),
      makeFact({ text: 'The other server loves opera', subjectId: null, guildId: G2 }),
      makeFact({ text: 'Bob likes opera', subjectId: 'u2', guildId: G2 }),
    ]);
    await w.store.digests.putDigest({
      guildId: G2,
      subjectId: 'u1',
      text: 'Opera fan.',
      generatedAt: T0,
      sourceFactCount: 1,
      channels: null,
    });
    const ctx = await service.promptContext({
      guildId: G,
      askerId: 'u1',
      text: 'opera',
      mentionedIds: ['u2', 'bobby'],
    });
    expect(ctx.injectionBlock).toBe('');
    expect(ctx.facts).toEqual([]);
  });
});

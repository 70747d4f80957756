import { createFakeEmbedder } from '@permafrost/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, CAROL, DAVE, G1, G2, say, sqliteMemory, tempDir } from './helpers.js';

const { dir, cleanup } = tempDir();
afterAll(cleanup);
let k = 0;
const file = () => `${dir}/recall-${++k}.db`;
const texts = (r: { facts: readonly { fact: { text: string } }[] }) => r.facts.map((f) => f.fact.text);

describe('recall through the public API on SQLite', () => {
  it('finds facts lexically, and through synonyms with a semantic embedder', async () => {
    const { memory } = sqliteMemory(
      file(),
      {},
      { embedder: createFakeEmbedder({ synonyms: [['car', 'automobile', 'vehicle']] }) },
    );
    await memory.facts.remember({ guildId: G1, subjectId: ALICE, text: 'Alice plays chess every Sunday' });
    await memory.facts.remember({ guildId: G1, subjectId: ALICE, text: 'Alice drives a red car' });
    await memory.facts.remember({ guildId: G1, subjectId: BOB, text: 'Bob collects stamps' });
    expect(
      texts(await memory.recall({ guildId: G1, text: 'who plays chess?', scope: 'guild', topK: 1 })),
    ).toEqual(['Alice plays chess every Sunday']);
    const synonym = await memory.recall({
      guildId: G1,
      text: 'what automobile does she own',
      scope: 'subjects',
      subjectIds: [ALICE],
      topK: 1,
    });
    expect(texts(synonym)).toEqual(['Alice drives a red car']);
    expect(synonym.facts[0]?.matchedChannels).toContain('vector');
    await memory.close();
  });

  it('reads memory as of a past date (time travel) and hides retired facts now', async () => {
    const { memory, clock } = sqliteMemory(file());
    const omaha = await memory.facts.remember({
      guildId: G1,
      subjectId: ALICE,
      text: 'Alice lives in Omaha',
    });
    const before = clock.now();
    clock.advanceDays(10);
    await memory.facts.forget({ guildId: G1, factId: omaha.id, reason: 'moved' });
    await memory.facts.remember({ guildId: G1, subjectId: ALICE, text: 'Alice lives in Seattle' });
    expect(
      texts(
        await memory.recall({
          guildId: G1,
          text: 'where does Alice live',
          scope: 'subjects',
          subjectIds: [ALICE],
        }),
      ),
    ).toEqual(['Alice lives in Seattle']);
    expect(
      texts(
        await memory.recall({
          guildId: G1,
          text: 'where does Alice live',
          scope: 'subjects',
          subjectIds: [ALICE],
          asOf: before,
        }),
      ),
    ).toEqual(['Alice lives in Omaha']);
    await memory.close();
  });

  it('applies maxPerSubject, minScore, channel restriction and excludeIds', async () => {
    const { memory } = sqliteMemory(file());
    const made = [];
    for (const t of ['Alice bakes bread', 'Alice bakes cakes', 'Alice bakes pies', 'Alice bakes cookies'])
      made.push(await memory.facts.remember({ guildId: G1, subjectId: ALICE, text: t }));
    await memory.facts.remember({ guildId: G1, subjectId: BOB, text: 'Bob bakes bagels' });
    const capped = await memory.recall({
      guildId: G1,
      text: 'who bakes',
      scope: 'guild',
      maxPerSubject: 2,
      topK: 10,
    });
    expect(capped.facts.filter((f) => f.fact.subjectId === ALICE)).toHaveLength(2);
    expect(capped.facts.some((f) => f.fact.subjectId === BOB)).toBe(true);
    expect(
      (await memory.recall({ guildId: G1, text: 'who bakes', scope: 'guild', minScore: 0.99 })).facts,
    ).toEqual([]);
    const keywordOnly = await memory.recall({
      guildId: G1,
      text: 'cookies',
      scope: 'guild',
      channels: ['keyword'],
    });
    expect(keywordOnly.facts.every((f) => f.matchedChannels.every((c) => c === 'keyword'))).toBe(true);
    expect(texts(keywordOnly)).toEqual(['Alice bakes cookies']);
    const excluded = await memory.recall({
      guildId: G1,
      text: 'cookies',
      scope: 'guild',
      channels: ['keyword'],
      excludeIds: [made[3]?.id as string],
    });
    expect(texts(excluded)).toEqual([]);
    await memory.close();
  });

  it('never shows a third-party claim as the asker’s, and labels it under its subject', async () => {
    const { memory } = sqliteMemory(file());
    await memory.facts.remember({
      guildId: G1,
      subjectId: BOB,
      speakerId: ALICE,
      text: 'Bob was called a hacker by Alice',
    });
    await memory.facts.remember({ guildId: G1, subjectId: ALICE, text: 'Alice streams speedruns' });
    const asker = await memory.promptContext({
      guildId: G1,
      askerId: ALICE,
      text: 'what do you know about me?',
    });
    const askerSection = asker.injectionBlock.slice(asker.injectionBlock.indexOf('CURRENT ASKER'));
    expect(askerSection).toContain('speedruns');
    expect(asker.injectionBlock).not.toContain('hacker');
    const withBob = await memory.promptContext({
      guildId: G1,
      askerId: ALICE,
      text: 'what about bob?',
      mentionedIds: [BOB],
    });
    const bobSection = withBob.injectionBlock.slice(withBob.injectionBlock.indexOf('REFERENCED USER'));
    expect(bobSection).toContain('hacker');
    expect(withBob.injectionBlock.slice(0, withBob.injectionBlock.indexOf('REFERENCED USER'))).not.toContain(
      'hacker',
    );
    await memory.close();
  });

  it('includes digests, trims to the token budget with a warning', async () => {
    const { memory } = sqliteMemory(file(), { llm: 'heuristic' });
    for (let i = 0; i < 8; i++)
      await memory.facts.remember({
        guildId: G1,
        subjectId: ALICE,
        text: `Alice has hobby number ${i} that involves painting landscapes`,
      });
    expect(await memory.regenerateSummaries({ guildId: G1, userIds: [ALICE] })).toBe(1);
    const full = await memory.promptContext({
      guildId: G1,
      askerId: ALICE,
      text: 'tell me about my hobbies',
    });
    expect(full.injectionBlock).toContain('Summary:');
    const small = await memory.promptContext({
      guildId: G1,
      askerId: ALICE,
      text: 'tell me about my hobbies',
      tokenBudget: 80,
    });
    expect(small.warnings).toContain('budget_trimmed');
    expect(small.injectionBlock.length).toBeLessThanOrEqual(80 * 4);
    expect(small.injectionBlock.length).toBeLessThan(full.injectionBlock.length);
    await memory.close();
  });

  it('warns on an ambiguous name instead of guessing, and keeps facts across a rename', async () => {
    const { memory, clock } = sqliteMemory(file());
    await say(memory, clock, G1, CAROL, 'Alex', 'hi there everyone');
    await say(memory, clock, G1, DAVE, 'Alex', 'hello hello friends');
    await memory.facts.remember({ guildId: G1, subjectId: CAROL, text: 'Carol collects fossils' });
    const ctx = await memory.promptContext({
      guildId: G1,
      askerId: ALICE,
      text: 'what does alex like?',
      mentionedIds: ['alex'],
    });
    expect(ctx.warnings).toContain('identity_ambiguous');
    expect(ctx.injectionBlock).not.toContain('fossils');
    await memory.identity.handleMemberRename({ guildId: G1, userId: CAROL, displayName: 'Fossil Queen' });
    expect((await memory.identity.resolve({ guildId: G1, identifier: 'Fossil Queen' })).resolved).toBe(CAROL);
    expect((await memory.facts.getAll({ guildId: G1, subjectId: CAROL })).map((f) => f.text)).toEqual([
      'Carol collects fossils',
    ]);
    const named = await memory.promptContext({
      guildId: G1,
      askerId: ALICE,
      text: 'what does she collect?',
      mentionedIds: ['fossil queen'],
    });
    expect(named.injectionBlock).toContain('fossils');
    await memory.close();
  });

  it('never returns another guild’s data from any read', async () => {
    const { memory, clock } = sqliteMemory(file());
    await memory.facts.remember({
      guildId: G2,
      subjectId: ALICE,
      text: 'Alice secretly owns a zeppelin',
      relations: [{ verb: 'owns', toEntity: 'zeppelin' }],
    });
    await say(memory, clock, G2, ALICE, 'Alice', 'my zeppelin is parked downtown lol');
    await memory.facts.remember({ guildId: G1, subjectId: ALICE, text: 'Alice owns a bicycle' });
    await memory.flush();
    const reads = [
      await memory.recall({ guildId: G1, text: 'zeppelin', scope: 'guild' }),
      await memory.promptContext({ guildId: G1, askerId: ALICE, text: 'zeppelin' }),
      await memory.facts.search({ guildId: G1, text: 'zeppelin' }),
      await memory.conversation.search({ guildId: G1, text: 'zeppelin parked' }),
      await memory.admin.exportGuild({ guildId: G1 }),
      await memory.graph.relationsOf({ guildId: G1, userId: ALICE }),
      await memory.insights.topicTrends({ guildId: G1, minCount: 1 }),
    ];
    for (const r of reads) expect(JSON.stringify(r).toLowerCase()).not.toContain('zeppelin');
    expect(JSON.stringify(await memory.recall({ guildId: G2, text: 'zeppelin', scope: 'guild' }))).toContain(
      'zeppelin',
    );
    await memory.close();
  });
});

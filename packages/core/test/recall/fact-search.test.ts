import { describe, expect, it } from 'vitest';
import { MemoryError } from '../../src/errors/index.js';
import { RecallWarning } from '../../src/model/enums.js';
import { listForSubject, searchFacts } from '../../src/recall/fact-search.js';
import { createRecallService } from '../../src/recall/recall-service.js';
import { G, G2, makeFact, seed, world } from '../helpers/world.js';

describe('facts.search', () => {
  it('searches a guild, some members or the server, with no per-subject cap', async () => {
    const w = world();
    const facts = [
      ...Array.from({ length: 6 }, (_, i) =>
        makeFact({ text: `Alice reads fantasy novel ${i}`, subjectId: 'u1' }),
      ),
      makeFact({ text: 'Bob reads novels on the train', subjectId: 'u2' }),
      makeFact({ text: 'The book club reads one novel a month', subjectId: null }),
      makeFact({ text: 'Alice reads novels', guildId: G2 }),
    ];
    await seed(w.store, w.embedder, facts);
    const recall = createRecallService(w.deps());
    const all = await searchFacts(recall, { guildId: G, text: 'novel', limit: 20 });
    expect(all.facts).toHaveLength(8);
    expect(all.facts.every((f) => f.fact.guildId === G)).toBe(true);
    const bob = await searchFacts(recall, { guildId: G, text: 'novel', subjectIds: ['u2'] });
    expect(bob.facts.map((f) => f.fact.subjectId)).toEqual(['u2']);
    const server = await searchFacts(recall, { guildId: G, text: 'novel', serverOnly: true });
    expect(server.facts.map((f) => f.fact.subjectId)).toEqual([null]);
    expect((await searchFacts(recall, { guildId: G, text: '' })).warnings).toEqual([
      RecallWarning.QUERY_INVALID,
    ]);
  });
});

describe('facts.listForSubject', () => {
  it('pages with a cursor and samples at random', async () => {
    const w = world();
    const mine = Array.from({ length: 5 }, (_, i) => makeFact({ text: `fact ${i}`, subjectId: 'u1' }));
    const ended = makeFact({ text: 'old fact', subjectId: 'u1', validUntil: new Date() });
    await seed(w.store, w.embedder, [...mine, ended, makeFact({ text: 'server', subjectId: null })]);
    const first = await listForSubject(w.store, w.access, {
      guildId: G,
      subjectId: 'u1',
      limit: 2,
      order: 'oldest',
    });
    expect(first.items.map((f) => f.id)).toEqual([mine[0]?.id, mine[1]?.id]);
    const second = await listForSubject(w.store, w.access, {
      guildId: G,
      subjectId: 'u1',
      limit: 2,
      order: 'oldest',
      cursor: first.nextCursor as string,
    });
    expect(second.items.map((f) => f.id)).toEqual([mine[2]?.id, mine[3]?.id]);
    const newest = await listForSubject(w.store, w.access, { guildId: G, subjectId: 'u1', limit: 1 });
    expect(newest.items[0]?.id).toBe(mine[4]?.id);
    const withEnded = await listForSubject(w.store, w.access, {
      guildId: G,
      subjectId: 'u1',
      activeOnly: false,
      limit: 50,
    });
    expect(withEnded.items).toHaveLength(6);
    const sample = await listForSubject(w.store, w.access, {
      guildId: G,
      subjectId: 'u1',
      random: true,
      limit: 3,
    });
    expect(sample.items).toHaveLength(3);
    expect(sample.nextCursor).toBeNull();
    expect(
      (await listForSubject(w.store, w.access, { guildId: G, subjectId: null })).items.map((f) => f.text),
    ).toEqual(['server']);
    await expect(
      listForSubject(w.store, w.access, { guildId: G, subjectId: 'u1', random: true, cursor: 'x' }),
    ).rejects.toSatisfy((e: unknown) => MemoryError.is(e, 'SCHEMA_INVALID'));
  });
});

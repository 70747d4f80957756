import { describe, expect, it } from 'vitest';
import { ChannelName, RecallWarning } from '../../src/model/enums.js';
import { createMessageSearch } from '../../src/recall/message-search.js';
import { conversation, makeMessage, storeMessages } from '../helpers/messages.js';
import { DAY, failing, G, G2, T0, withMethod, withPort, world } from '../helpers/world.js';

function search(w: ReturnType<typeof world>, retrieval: Record<string, unknown> = {}) {
  const d = w.deps(retrieval);
  return createMessageSearch({
    store: d.store,
    embedder: d.embedder,
    clock: d.clock,
    retrieval: d.retrieval,
    access: d.access,
    isBot: d.isBot,
  });
}

describe('conversation search', () => {
  it('finds messages by keywords and by meaning, with jump links', async () => {
    const w = world({ synonyms: [['concert', 'gig']] });
    const msgs = conversation(
      [
        ['u1', 'the concert downtown was loud'],
        ['u2', 'I fixed my bike yesterday'],
        ['u3', 'that gig was the best of the year'],
      ],
      T0,
    );
    await storeMessages(w.store, w.embedder, msgs);
    const r = await search(w, { neighborWeight: 0 }).search({
      guildId: G,
      text: 'remember the concert?',
      limit: 2,
    });
    expect(r.messages.map((m) => m.message.messageId).sort()).toEqual(
      [msgs[0]?.messageId, msgs[2]?.messageId].sort(),
    );
    expect(r.messages[0]?.url).toMatch(/^https:\/\/discord\.com\/channels\/g1\/c1\/m\d+$/);
    const gig = r.messages.find((m) => m.message.messageId === msgs[2]?.messageId);
    expect(gig?.matchedChannels).toEqual([ChannelName.VECTOR]);
  });

  it('lifts the reply next to a strong match (neighbour smoothing) within one conversation', async () => {
    const w = world();
    const talk = conversation(
      [
        ['u1', 'what did you think of the marathon route?'],
        ['u2', 'honestly the hills near the river destroyed my legs'],
        ['u1', 'ok see you'],
      ],
      T0,
    );
    const later = conversation([['u2', 'hills are fun on a bike']], new Date(T0.getTime() + DAY));
    await storeMessages(w.store, w.embedder, [...talk, ...later]);
    const on = await search(w).search({ guildId: G, text: 'marathon route', limit: 5 });
    const reply = on.messages.find((m) => m.message.messageId === talk[1]?.messageId);
    expect(reply?.components.context).toBeGreaterThan(0);
    expect(on.messages[1]?.message.messageId).toBe(talk[1]?.messageId);
    // A message a day later is another conversation: it gets nothing from the match.
    expect(on.messages.some((m) => m.message.messageId === later[0]?.messageId)).toBe(false);
    const off = await search(w, { neighborWeight: 0 }).search({
      guildId: G,
      text: 'marathon route',
      limit: 5,
    });
    expect(off.messages.map((m) => m.message.messageId)).toEqual([talk[0]?.messageId]);
  });

  it('reads each neighbour window once, in at most two store calls, and searches on without them when it fails', async () => {
    const w = world();
    const talk = conversation(
      [
        ['u1', 'what did you think of the marathon route?'],
        ['u2', 'honestly the hills near the river destroyed my legs'],
        ['u3', 'the marathon route is flat after the bridge'],
      ],
      T0,
    );
    await storeMessages(w.store, w.embedder, talk);
    const d = w.deps();
    // The vector hits' windows are read first (while the keyword search runs), the rest after.
    const calls: string[][] = [];
    const counted = withPort(
      w.store,
      'conversation',
      new Proxy(w.store.conversation, {
        get(t, p, r) {
          const v = Reflect.get(t, p, r) as unknown;
          if (p !== 'channelWindows' || typeof v !== 'function')
            return typeof v === 'function' ? v.bind(t) : v;
          return (guildId: string, anchors: { messageId: string }[], window: number) => {
            calls.push(anchors.map((a) => a.messageId));
            return (v as (...a: unknown[]) => unknown).call(t, guildId, anchors, window);
          };
        },
      }),
    );
    const on = await createMessageSearch({ ...d, store: counted }).search({
      guildId: G,
      text: 'marathon route',
    });
    expect(on.messages.length).toBeGreaterThan(1);
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(calls.length).toBeLessThanOrEqual(2);
    const read = calls.flat();
    expect(new Set(read).size).toBe(read.length);
    for (const m of on.messages.filter((x) => x.matchedChannels.length > 0))
      expect(read).toContain(m.message.messageId);
    const logs: string[] = [];
    const down = withPort(w.store, 'conversation', failing(w.store.conversation, 'channelWindows'));
    const r = await createMessageSearch({ ...d, store: down, logger: (e) => logs.push(e.event) }).search({
      guildId: G,
      text: 'marathon route',
    });
    expect(r.messages.map((m) => m.message.messageId)).toContain(talk[0]?.messageId);
    expect(r.messages.every((m) => m.components.context === 0)).toBe(true);
    expect(logs).toContain('message_search.neighbors_failed');
  });

  it("asks the keyword search for the hits' windows and reads none of those again", async () => {
    const w = world();
    const talk = conversation(
      [
        ['u1', 'what did you think of the marathon route?'],
        ['u2', 'honestly the hills near the river destroyed my legs'],
        ['u3', 'the marathon route is flat after the bridge'],
        ['u1', 'did anyone bring water for the marathon?'],
      ],
      T0,
    );
    await storeMessages(w.store, w.embedder, talk);
    const d = w.deps();
    // Keyword hits only (no vector hit has its window read ahead), every window read counted.
    const keywordOnly = withPort(
      w.store,
      'vectors',
      withMethod(w.store.vectors, 'search', async () => []),
    );
    const asked: (number | undefined)[] = [];
    const read: string[][] = [];
    const counting = (handOver: boolean) =>
      withPort(
        keywordOnly,
        'conversation',
        new Proxy(w.store.conversation, {
          get(t, p, r) {
            const v = Reflect.get(t, p, r) as unknown;
            if (p === 'searchText')
              return async (
                guildId: string,
                terms: readonly string[],
                limit: number,
                options?: { windowsAround?: number },
              ) => {
                asked.push(options?.windowsAround);
                const hits = await t.searchText(guildId, terms, limit);
                if (!handOver) return hits;
                // As the SQLite store does: the windows read with the search, handed over on the hits.
                const around = options?.windowsAround ?? 0;
                const windows = await t.channelWindows(
                  guildId,
                  hits.map((h) => h.message),
                  around,
                );
                return hits.map((h, i) => ({ ...h, window: windows[i] }));
              };
            if (p === 'channelWindows')
              return (
                guildId: string,
                anchors: { channelId: string; messageId: string }[],
                window: number,
              ) => {
                read.push(anchors.map((a) => a.messageId));
                return t.channelWindows(guildId, anchors, window);
              };
            return typeof v === 'function' ? v.bind(t) : v;
          },
        }),
      );
    const plain = await createMessageSearch({ ...d, store: counting(false) }).search({
      guildId: G,
      text: 'marathon route',
    });
    expect(read.flat().length).toBeGreaterThan(0);
    read.length = 0;
    const handed = await createMessageSearch({ ...d, store: counting(true) }).search({
      guildId: G,
      text: 'marathon route',
    });
    expect(asked).toEqual([d.retrieval.neighborWindow, d.retrieval.neighborWindow]);
    expect(read.flat()).toEqual([]);
    expect(handed.messages.map((m) => [m.message.messageId, m.score])).toEqual(
      plain.messages.map((m) => [m.message.messageId, m.score]),
    );
    expect(handed.messages.some((m) => m.components.context > 0)).toBe(true);
  });

  it('measures keyword scores against a full match of the query (retrieval.lexicalFloor)', async () => {
    const w = world();
    await storeMessages(w.store, w.embedder, [
      makeMessage({ content: 'baked sourdough bread today', createdAt: new Date(T0.getTime()) }),
      makeMessage({ content: 'my violin needs new strings', createdAt: new Date(T0.getTime() + DAY) }),
      makeMessage({ content: 'took the dog out', createdAt: new Date(T0.getTime() + 2 * DAY) }),
    ]);
    // "zeppelin" is in no message: the best hit matches only part of the query.
    const lexical = async (lexicalFloor: number) =>
      (await search(w, { lexicalFloor }).search({ guildId: G, text: 'bread zeppelin' })).messages[0]
        ?.components.lexical;
    expect(await lexical(0)).toBe(1);
    const floored = await lexical(1);
    expect(floored).toBeGreaterThan(0);
    expect(floored).toBeLessThan(0.6);
  });

  it('ranks the message holding the query as a phrase first (retrieval.phraseWeight)', async () => {
    const w = world();
    const inOrder = makeMessage({ content: 'walk 5K charity run', createdAt: new Date(T0.getTime()) });
    const scattered = makeMessage({
      content: 'run charity 5K walk',
      createdAt: new Date(T0.getTime() + DAY),
    });
    await storeMessages(w.store, w.embedder, [inOrder, scattered]);
    const ids = async (retrieval: Record<string, unknown>) =>
      (
        await search(w, { weights: { rrf: 0 }, ...retrieval }).search({
          guildId: G,
          text: 'the 5K charity run',
        })
      ).messages.map((m) => m.message.messageId);
    expect(await ids({})).toEqual([inOrder.messageId, scattered.messageId]);
    // Without the phrase match (and rank fusion) the two tie; the newer one goes first.
    expect(await ids({ phraseWeight: 0 })).toEqual([scattered.messageId, inOrder.messageId]);
  });

  it('lifts messages of a conversation that matches as a whole (retrieval.conversationWeight)', async () => {
    const w = world();
    const talk = [
      makeMessage({ content: 'marathon', channelId: 'c1', createdAt: new Date(T0.getTime()) }),
      makeMessage({ content: 'marathon', channelId: 'c1', createdAt: new Date(T0.getTime() + 60_000) }),
    ];
    const alone = makeMessage({
      content: 'marathon',
      channelId: 'c2',
      createdAt: new Date(T0.getTime() + DAY),
    });
    await storeMessages(w.store, w.embedder, [...talk, alone]);
    const first = async (retrieval: Record<string, unknown>) =>
      (await search(w, { weights: { rrf: 0 }, ...retrieval }).search({ guildId: G, text: 'marathon' }))
        .messages[0]?.message.messageId;
    expect(await first({})).toBe(talk[1]?.messageId);
    expect(await first({ conversationWeight: 0 })).toBe(alone.messageId);
  });

  it('excludes authors, bots, opted-out members and other guilds', async () => {
    const w = world();
    await storeMessages(w.store, w.embedder, [
      makeMessage({ content: 'pizza party friday', authorId: 'u1' }),
      makeMessage({ content: 'pizza is great', authorId: 'u2' }),
      makeMessage({ content: 'pizza reminder', authorId: 'bot', authorIsBot: true }),
      makeMessage({ content: 'pizza again', authorId: 'u3', guildId: G2 }),
      makeMessage({ content: 'pizza secrets', authorId: 'u4' }),
    ]);
    await w.store.consent.setOptOut(G, 'u4', true, T0);
    const r = await search(w).search({ guildId: G, text: 'pizza', excludeAuthorIds: ['u2'] });
    expect(r.messages.map((m) => m.message.authorId)).toEqual(['u1']);
  });

  it('filters by channel', async () => {
    const w = world();
    await storeMessages(w.store, w.embedder, [
      makeMessage({ content: 'raid tonight', channelId: 'games' }),
      makeMessage({ content: 'raid recap', channelId: 'general' }),
    ]);
    const r = await search(w).search({ guildId: G, text: 'raid', channelId: 'games' });
    expect(r.messages.map((m) => m.message.channelId)).toEqual(['games']);
  });

  it('degrades when a channel fails and never throws', async () => {
    const w = world();
    await storeMessages(w.store, w.embedder, [makeMessage({ content: 'sushi place on 5th street' })]);
    const d = w.deps();
    const store = withPort(w.store, 'vectors', failing(w.store.vectors, 'search'));
    const r = await createMessageSearch({ ...d, store }).search({ guildId: G, text: 'sushi' });
    expect(r.messages).toHaveLength(1);
    expect(r.degradedChannels).toEqual([ChannelName.VECTOR]);
    expect(r.warnings).toContain(RecallWarning.DEGRADED_CHANNEL);
    const bad = await search(w).search({ guildId: G, text: '' });
    expect(bad.warnings).toEqual([RecallWarning.QUERY_INVALID]);
    const down = withPort(w.store, 'consent', failing(w.store.consent, 'optedOutUsers'));
    expect(
      (await createMessageSearch({ ...d, store: down }).search({ guildId: G, text: 'sushi' })).warnings,
    ).toEqual([RecallWarning.STORE_UNAVAILABLE]);
  });
});

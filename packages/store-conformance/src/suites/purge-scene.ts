import type { MemoryStore } from '@permafrost/core';
import {
  at,
  G1,
  G2,
  makeFact,
  makeHistory,
  makeLink,
  makeMessage,
  unitVector,
  vectorItem,
} from '../fixtures.js';

/** A small guild: bob (subject), alice (speaker of a third-party fact about bob), carol (bystander). */
export async function seedPurgeScene(s: MemoryStore) {
  const bobFact = makeFact({ subjectId: 'bob', text: 'bob collects zanzibarian stamps' });
  const aboutBobByAlice = makeFact({
    subjectId: 'bob',
    text: 'bob was called a hacker by alice',
    attribution: { type: 'third_party', speakerId: 'alice', speakerName: 'Alice', actorId: null },
  });
  const aliceSaysCarol = makeFact({
    subjectId: 'carol',
    text: 'carol plays the xylotrumpet',
    attribution: { type: 'third_party', speakerId: 'alice', speakerName: 'Alice', actorId: null },
  });
  const carolFact = makeFact({
    subjectId: 'carol',
    text: 'carol bakes sourdough',
    relatedUserIds: ['alice'],
    sources: [
      {
        messageId: 'ma',
        channelId: 'c1',
        authorId: 'alice',
        authorName: 'Alice',
        snippet: 'alice quoted words',
        url: '',
        role: 'supporting',
        createdAt: at(1),
      },
      {
        messageId: 'mc',
        channelId: 'c1',
        authorId: 'carol',
        authorName: 'Carol',
        snippet: 'carol own words',
        url: '',
        role: 'primary',
        createdAt: at(2),
      },
    ],
  });
  const otherGuild = makeFact({ guildId: G2, subjectId: 'alice', text: 'alice in another guild' });
  await s.facts.insert([bobFact, aboutBobByAlice, aliceSaysCarol, carolFact, otherGuild]);
  await s.facts.appendHistory([
    makeHistory(aboutBobByAlice, { previousText: 'alice history text' }),
    makeHistory(carolFact),
  ]);
  await s.graph.addLinks([
    makeLink(aboutBobByAlice),
    makeLink(aboutBobByAlice, { nodeId: 'alice', kind: 'speaker_of' }),
    makeLink(carolFact),
    makeLink(carolFact, { nodeId: 'alice', kind: 'mentioned_with' }),
  ]);
  await s.graph.upsertRelation({
    guildId: G1,
    src: { type: 'user', id: 'alice' },
    dst: { type: 'user', id: 'bob' },
    verb: 'called_out',
    polarity: 'negative',
    confidence: 0.9,
    evidenceFactId: aboutBobByAlice.id,
    at: at(0),
  });
  await s.graph.upsertRelation({
    guildId: G1,
    src: { type: 'user', id: 'carol' },
    dst: { type: 'entity', id: 'xylotrumpet' },
    verb: 'plays',
    polarity: 'neutral',
    confidence: 0.9,
    evidenceFactId: aliceSaysCarol.id,
    at: at(0),
  });
  await s.graph.upsertRelation({
    guildId: G1,
    src: { type: 'user', id: 'carol' },
    dst: { type: 'entity', id: 'sourdough' },
    verb: 'likes',
    polarity: 'positive',
    confidence: 0.9,
    evidenceFactId: carolFact.id,
    at: at(0),
  });
  await s.graph.upsertEntity({
    guildId: G1,
    slug: 'ali',
    name: 'Ali',
    kind: 'person',
    aliases: ['ali'],
    at: at(0),
  });
  await s.graph.linkEntityToUser(G1, 'ali', 'alice');
  // An entity only Alice's statement mentions (purged with it), and one Carol's own fact mentions (kept).
  for (const [slug, name] of [
    ['xylotrumpet', 'Xylotrumpet'],
    ['sourdough', 'Sourdough'],
  ] as const) {
    await s.graph.upsertEntity({ guildId: G1, slug, name, kind: 'concept', aliases: [slug], at: at(0) });
  }
  await s.graph.addLinks([
    makeLink(aliceSaysCarol, { nodeType: 'entity', nodeId: 'xylotrumpet', kind: 'about_entity' }),
    makeLink(carolFact, { nodeType: 'entity', nodeId: 'sourdough', kind: 'about_entity' }),
  ]);
  await s.aliases.upsert({
    guildId: G1,
    alias: 'alice',
    userId: 'alice',
    source: 'display_name',
    weight: 0.7,
    updatedAt: at(0),
  });
  await s.aliases.upsert({
    guildId: G2,
    alias: 'alice',
    userId: 'alice',
    source: 'display_name',
    weight: 0.7,
    updatedAt: at(0),
  });
  await s.digests.putDigest({
    guildId: G1,
    subjectId: 'alice',
    text: 'alice digest words',
    generatedAt: at(0),
    sourceFactCount: 3,
    channels: null,
  });
  const aliceMsg = makeMessage({
    authorId: 'alice',
    content: 'alice says quokka things',
    status: 'processed',
  });
  const alicePending = makeMessage({ authorId: 'alice', content: 'alice pending quokka' });
  const carolMsg = makeMessage({ authorId: 'carol', content: 'carol says hello there' });
  await s.queue.enqueueMany([aliceMsg, alicePending, carolMsg], 1000);
  const v = unitVector(1, 8);
  await s.vectors.upsert([
    vectorItem(aboutBobByAlice.id, v, { subjectId: 'bob' }),
    vectorItem(aliceSaysCarol.id, v, { subjectId: 'carol' }),
    vectorItem(carolFact.id, v, { subjectId: 'carol' }),
    vectorItem(aliceMsg.messageId, v, { kind: 'message', subjectId: 'alice' }),
  ]);
  return { bobFact, aboutBobByAlice, aliceSaysCarol, carolFact, otherGuild, aliceMsg, carolMsg, v };
}

const ALICE_SAYS = { type: 'third_party', speakerId: 'alice', speakerName: 'Alice', actorId: null } as const;

/**
 * The purge scene plus statements alice made about others that partly stay: a server fact she
 * stated (so the server digest may quote her), carol's own statement sharing the relation and the
 * entity of alice's statement about her (its evidence is trimmed, the entity is kept), an entity
 * only her statement about bob names (removed), and the digests of bob, carol, the server and
 * dave (alice said nothing about dave: his digest stays).
 */
export async function seedStatementsAboutOthers(s: MemoryStore) {
  const scene = await seedPurgeScene(s);
  const serverByAlice = makeFact({
    subjectId: null,
    text: 'the server meets on fridays',
    attribution: ALICE_SAYS,
  });
  const carolPlays = makeFact({ subjectId: 'carol', text: 'carol practises the xylotrumpet daily' });
  const daveFact = makeFact({ subjectId: 'dave', text: 'dave paints murals' });
  await s.facts.insert([serverByAlice, carolPlays, daveFact]);
  await s.graph.upsertRelation({
    guildId: G1,
    src: { type: 'user', id: 'carol' },
    dst: { type: 'entity', id: 'xylotrumpet' },
    verb: 'plays',
    polarity: 'neutral',
    confidence: 0.9,
    evidenceFactId: carolPlays.id,
    at: at(5),
  });
  await s.graph.upsertEntity({
    guildId: G1,
    slug: 'kazoo',
    name: 'Kazoo',
    kind: 'concept',
    aliases: ['kazoo'],
    at: at(0),
  });
  await s.graph.addLinks([
    makeLink(carolPlays, { nodeType: 'entity', nodeId: 'xylotrumpet', kind: 'about_entity' }),
    makeLink(scene.aboutBobByAlice, { nodeType: 'entity', nodeId: 'kazoo', kind: 'about_entity' }),
  ]);
  for (const subjectId of ['bob', 'carol', null, 'dave'])
    await s.digests.putDigest({
      guildId: G1,
      subjectId,
      text: `digest of ${subjectId ?? 'the server'}`,
      generatedAt: at(6),
      sourceFactCount: 2,
      channels: null,
    });
  return { ...scene, serverByAlice, carolPlays, daveFact };
}

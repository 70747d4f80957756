import { describe, expect, it } from 'vitest';
import {
  decideRelations,
  entityCandidates,
  orphanedEntities,
  purgedLinks,
  purgedReactions,
  purgeReport,
  quotedDigestSubjects,
  stripMemberSources,
} from '../../src/governance/purge-rules.js';
import type { SourceRef } from '../../src/model/fact.js';
import type { PurgePlan } from '../../src/model/governance-plans.js';
import { type Link, type Relation, relationRefKey } from '../../src/model/graph.js';
import { G, makeFact, T0 } from '../helpers/world.js';

const relation = (over: Partial<Relation>): Relation => ({
  guildId: G,
  srcType: 'user',
  srcId: 'carol',
  dstType: 'entity',
  dstId: 'tea',
  verb: 'likes',
  polarity: 'positive',
  weight: 0.5,
  occurrences: 1,
  confidence: 0.8,
  evidenceFactIds: [],
  validFrom: T0,
  validUntil: null,
  updatedAt: T0,
  ...over,
});
const link = (
  factId: string,
  nodeType: Link['nodeType'],
  nodeId: string,
  kind: Link['kind'] = 'about_entity',
): Link => ({
  guildId: G,
  factId,
  nodeType,
  nodeId,
  kind,
  createdAt: T0,
});
const source = (authorId: string): SourceRef => ({
  messageId: `m-${authorId}`,
  channelId: 'c1',
  authorId,
  authorName: authorId,
  snippet: 'words',
  url: '',
  role: 'supporting',
  createdAt: T0,
});
const says = (speakerId: string) => ({
  type: 'third_party' as const,
  speakerId,
  speakerName: null,
  actorId: null,
});

describe('purge rules', () => {
  it('deletes relations touching the member or left without evidence, trims the others once', () => {
    const touching = relation({ srcId: 'alice', evidenceFactIds: ['f9'] });
    const emptied = relation({ verb: 'plays', evidenceFactIds: ['f1', 'f2'] });
    const trimmed = relation({ verb: 'brews', evidenceFactIds: ['f1', 'f3'] });
    const untouched = relation({ verb: 'hates', evidenceFactIds: [] });
    const { deleted, trimmed: trims } = decideRelations(
      [touching, emptied, trimmed, trimmed, untouched],
      'alice',
      new Set(['f1', 'f2']),
    );
    expect(deleted).toEqual([touching, emptied]);
    expect(trims).toEqual([
      {
        relation: {
          srcType: 'user',
          srcId: 'carol',
          dstType: 'entity',
          dstId: 'tea',
          verb: 'brews',
          validFrom: T0,
        },
        evidenceFactIds: ['f3'],
      },
    ]);
  });

  it('drops the digests of the member and of every subject they stated facts about', () => {
    const facts = [
      makeFact({ text: 'about alice', subjectId: 'alice' }),
      makeFact({ text: 'bob', subjectId: 'bob', attribution: says('alice') }),
      makeFact({ text: 'server', subjectId: null, attribution: says('alice') }),
      makeFact({ text: 'by dave about alice', subjectId: 'alice', attribution: says('dave') }),
    ];
    expect(quotedDigestSubjects('alice', facts)).toEqual(['alice', 'bob', null]);
  });

  it('strips only the member refs from facts that stay', () => {
    const purged = makeFact({ text: 'purged', sources: [source('alice')] });
    const mixed = makeFact({ text: 'mixed', sources: [source('alice'), source('carol'), source('alice')] });
    const { strip, removed } = stripMemberSources([purged, mixed], 'alice', new Set([purged.id]));
    expect(strip).toEqual([{ factId: mixed.id, sources: [source('carol')] }]);
    expect(removed).toBe(2);
  });

  it('deletes each link once: links of the purged facts and links to the member', () => {
    const a = link('f1', 'entity', 'tea');
    const b = link('f1', 'user', 'alice', 'subject_of');
    expect(purgedLinks([a, b], [b, link('f7', 'user', 'alice', 'mentioned_with')])).toHaveLength(3);
  });

  it('removes entities nothing staying refers to and keeps shared ones', () => {
    const deleted = [relation({ srcId: 'alice', dstId: 'kazoo' })];
    const factLinks = [link('f1', 'entity', 'tea'), link('f1', 'entity', 'mug'), link('f2', 'user', 'bob')];
    const candidates = entityCandidates(factLinks, deleted);
    expect(candidates).toEqual(['tea', 'mug', 'kazoo']);
    const orphans = orphanedEntities({
      candidates: [...candidates, 'ghost'],
      existing: new Set(['tea', 'mug', 'kazoo']),
      // tea: also linked from a fact that stays; mug: only from the purged fact.
      links: [...factLinks, link('f5', 'entity', 'tea')],
      // kazoo: only the deleted relation; mug: an ended relation that stays keeps it.
      relations: [...deleted, relation({ dstId: 'mug', validUntil: T0 })],
      purgedFactIds: new Set(['f1', 'f2']),
      deletedRelations: new Set(deleted.map(relationRefKey)),
    });
    expect(orphans).toEqual(['kazoo']);
  });

  it('deletes each reaction once: the member’s own and those to their messages (ids only kept)', () => {
    const r = (messageId: string, userId: string, emoji: string) => ({
      guildId: G,
      channelId: 'c',
      messageId,
      userId,
      emoji,
      at: T0,
    });
    // m1 is the member's message: Bob's reaction to it goes; the member's own reaction to m2 too.
    const own = [r('m2', 'alice', '👍'), r('m1', 'alice', '🎉')];
    const onTheirs = [r('m1', 'bob', '👍'), r('m1', 'alice', '🎉')];
    expect(purgedReactions([...own, ...onTheirs])).toEqual([
      { messageId: 'm2', userId: 'alice', emoji: '👍' },
      { messageId: 'm1', userId: 'alice', emoji: '🎉' },
      { messageId: 'm1', userId: 'bob', emoji: '👍' },
    ]);
  });

  it('reports the same counts for a dry run and a real run of one plan', () => {
    const plan: PurgePlan = {
      guildId: G,
      userId: 'alice',
      factIds: ['f1', 'f2'],
      links: [link('f1', 'entity', 'tea')],
      deleteRelations: [],
      trimRelations: [],
      stripSources: [],
      aliases: [{ alias: 'ali', userId: 'alice' }],
      digestSubjects: ['alice', null],
      messageIds: ['m1'],
      unlinkEntities: ['ali'],
      deleteEntities: ['tea'],
      reactions: [{ messageId: 'm1', userId: 'bob', emoji: '👍' }],
    };
    const tallies = { vectors: 3, history: 4, sourcesStripped: 1, optOutKept: true };
    const dry = purgeReport(plan, tallies, true);
    expect(purgeReport(plan, tallies, false)).toEqual({ ...dry, dryRun: false });
    expect(dry).toMatchObject({
      facts: 2,
      links: 1,
      aliases: 1,
      digests: 2,
      messages: 1,
      entities: 1,
      vectors: 3,
      reactions: 1,
    });
  });
});

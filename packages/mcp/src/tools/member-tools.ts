import type { RelationEdge } from '@permafrost/core';
import { z } from 'zod';
import { audienceSchema, readOptions } from '../audience.js';
import { edgeDto, edgeOut, factDto, factOut, warningsOut } from '../dto.js';
import { defineTool, guildField, instantField, memberField } from '../tool.js';
import { refuseInvalid } from './read-tools.js';

export const factsAboutTool = defineTool({
  name: 'facts_about',
  title: 'Facts about a member',
  description:
    'What Permafrost knows about one member: their strongest facts first (members who opted out have none).',
  readOnly: true,
  input: z
    .object({
      guildId: guildField,
      audience: audienceSchema,
      userId: memberField,
      limit: z.number().int().min(1).max(100).default(20),
      asOf: instantField.optional().describe('Facts as they were at this instant.'),
    })
    .strict(),
  output: z.object({ facts: z.array(factOut), warnings: warningsOut }),
  async run(a, memory) {
    // Recall without text runs the member's structural channels (links, strongest facts), with
    // recall's filters: opt-out, bots, purged data.
    const r = await memory.recall({
      ...readOptions(a.guildId, a.audience),
      text: null,
      scope: 'subjects',
      subjectIds: [a.userId],
      topK: a.limit,
      maxPerSubject: a.limit,
      ...(a.asOf ? { asOf: a.asOf } : {}),
    });
    refuseInvalid('facts_about', r.warnings);
    return { facts: r.facts.map((s) => factDto(s.fact)), warnings: [...r.warnings] };
  },
});

const touches = (e: RelationEdge, type: string, id: string) =>
  (e.src.type === type && e.src.id === id) || (e.dst.type === type && e.dst.id === id);

export const graphBetweenTool = defineTool({
  name: 'graph_between',
  title: 'Relations between two members, or a member and an entity',
  description:
    'Active typed relations (likes, works_at, friend_of, …) between two members, or between a member and an entity (by name or slug), heaviest first.',
  readOnly: true,
  input: z
    .object({
      guildId: guildField,
      audience: audienceSchema,
      userId: memberField,
      otherUserId: memberField.optional().describe('The second member (give this or entity).'),
      entity: z
        .string()
        .min(1)
        .max(200)
        .optional()
        .describe('An entity name or slug (give this or otherUserId).'),
    })
    .strict()
    .refine((v) => (v.otherUserId === undefined) !== (v.entity === undefined), {
      message: 'give exactly one of otherUserId and entity',
      path: ['otherUserId'],
    }),
  output: z.object({
    entity: z.object({ slug: z.string(), name: z.string() }).nullable(),
    edges: z.array(edgeOut),
  }),
  async run(a, memory) {
    const base = readOptions(a.guildId, a.audience);
    if (a.otherUserId !== undefined) {
      const edges = await memory.graph.between({ ...base, a: a.userId, b: a.otherUserId });
      return { entity: null, edges: edges.map(edgeDto) };
    }
    const stances = await memory.graph.entityStances({ ...base, entity: a.entity as string, limit: 1 });
    if (stances.entitySlug === null) return { entity: null, edges: [] };
    const slug = stances.entitySlug;
    const edges = (await memory.graph.relationsOf({ ...base, userId: a.userId, limit: 500 })).filter((e) =>
      touches(e, 'entity', slug),
    );
    return { entity: { slug, name: stances.entityName ?? slug }, edges: edges.map(edgeDto) };
  },
});

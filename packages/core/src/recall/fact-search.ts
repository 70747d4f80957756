import { z } from 'zod';
import { type AccessDeps, resolveVisibility } from '../access/visibility.js';
import { audienceSchema } from '../model/audience.js';
import { ChannelName, RecallWarning } from '../model/enums.js';
import type { Fact, Page } from '../model/fact.js';
import { timestampSchema } from '../model/message.js';
import type { FactFilter } from '../ports/fact-store.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { checkInput, idField as id, parseInput, schemaInvalid, userIdField } from '../validation/index.js';
import type { RecallResult, RecallService } from './recall-types.js';

export const factSearchSchema = z
  .object({
    guildId: id,
    text: z.string().min(1).max(100_000),
    /** Only facts about these members (server facts only with includeServer). */
    subjectIds: z.array(id).max(200).optional(),
    includeServer: z.boolean().default(false),
    serverOnly: z.boolean().default(false),
    limit: z.number().int().min(1).max(200).default(20),
    asOf: timestampSchema.optional(),
    /** Only facts this audience may see (see `access.requireAudience`). */
    audience: audienceSchema.nullish(),
  })
  .strict();
export type FactSearchInput = z.input<typeof factSearchSchema>;

/**
 * facts.search: hybrid (vector + keyword + named entities) search over a guild's facts, or over
 * some members' / the server's facts, with the recall fusion and filters and no per-subject cap.
 * Never throws (a bad query returns no facts and a `query_invalid` warning).
 */
export async function searchFacts(recall: RecallService, input: FactSearchInput): Promise<RecallResult> {
  const parsed = checkInput(factSearchSchema, input, 'facts.search');
  if (!parsed.ok) return { facts: [], warnings: [RecallWarning.QUERY_INVALID], degradedChannels: [] };
  const q = parsed.data;
  const scope = q.serverOnly ? 'server' : q.subjectIds && q.subjectIds.length > 0 ? 'subjects' : 'guild';
  return recall.recall({
    guildId: q.guildId,
    text: q.text,
    scope,
    ...(scope === 'subjects' ? { subjectIds: q.subjectIds, includeServer: q.includeServer } : {}),
    channels: [ChannelName.VECTOR, ChannelName.KEYWORD, ChannelName.ENTITY],
    topK: q.limit,
    maxPerSubject: q.limit,
    ...(q.asOf ? { asOf: q.asOf } : {}),
    audience: q.audience ?? null,
  });
}

export const listForSubjectSchema = z
  .object({
    guildId: id,
    /** The member, or null for server facts. */
    subjectId: userIdField.nullable(),
    /** With a member: also list server facts. */
    includeServer: z.boolean().default(false),
    /** false: every version, including superseded and ended facts. */
    activeOnly: z.boolean().default(true),
    limit: z.number().int().min(1).max(500).default(50),
    cursor: z.string().min(1).max(256).optional(),
    order: z.enum(['oldest', 'newest']).default('newest'),
    /** A random sample instead of a page (cannot be combined with a cursor). */
    random: z.boolean().default(false),
    /**
     * Only facts this audience may see: hidden facts are left out of the page (which may then hold
     * fewer than `limit`; the cursor still moves on). See `access.requireAudience`.
     */
    audience: audienceSchema.nullish(),
  })
  .strict();
export type ListForSubjectInput = z.input<typeof listForSubjectSchema>;

/**
 * facts.listForSubject: a page of a member's (or the server's) facts in id order with an opaque
 * cursor, or a random sample. Invalid input (including `random` with a cursor) throws
 * MemoryError SCHEMA_INVALID.
 */
export async function listForSubject(
  store: MemoryStore,
  access: AccessDeps,
  input: ListForSubjectInput,
): Promise<Page<Fact>> {
  const q = parseInput(listForSubjectSchema, input, 'facts.listForSubject');
  if (q.random && q.cursor !== undefined)
    throw schemaInvalid('facts.listForSubject', [
      { path: ['cursor'], code: 'random_with_cursor', message: 'random pages have no cursor' },
    ]);
  const filter: FactFilter =
    q.subjectId === null
      ? { guildId: q.guildId, serverOnly: true }
      : { guildId: q.guildId, subjectIds: [q.subjectId], includeServer: q.includeServer };
  const visible = await resolveVisibility(access, q.guildId, q.audience);
  const page = await store.facts.list({
    ...filter,
    validity: q.activeOnly ? 'active' : 'any',
    limit: q.limit,
    order: q.random ? 'random' : q.order,
    ...(q.cursor !== undefined && !q.random ? { cursor: q.cursor } : {}),
  });
  return visible.restricted
    ? { ...page, items: page.items.filter((f) => visible.channels(f.channels)) }
    : page;
}

import { z } from 'zod';
import { type AccessDeps, digestVisible, type Visibility } from '../access/visibility.js';
import type { MemoryConfig } from '../config/schema.js';
import type { IdentityService } from '../identity/identity-service.js';
import { audienceSchema } from '../model/audience.js';
import { RecallWarning } from '../model/enums.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { quiet, RecallSession } from '../recall/recall-session.js';
import type { RecallResult, RecallService, ScoredFact } from '../recall/recall-types.js';
import { checkInput, idField as id, userIdField } from '../validation/index.js';
import { renderBetween } from './between-block.js';
import { type BetweenGroup, betweenPeople } from './between-people.js';
import { applyCitations } from './citations.js';
import { cite } from './cite.js';
import { type BlockSection, buildInjectionBlock, CHARS_PER_TOKEN } from './injection-block.js';
import { type MemberLabel, memberLabels } from './member-labels.js';
import { directId, discoveryPairs, resolveParticipants } from './participants.js';
import type { Citation, PromptContext } from './prompt-context-types.js';

export interface PromptContextDeps {
  readonly recall: RecallService;
  readonly identity: IdentityService;
  readonly store: MemoryStore;
  readonly embedder: Embedder;
  readonly clock: Clock;
  readonly retrieval: MemoryConfig['retrieval'];
  readonly access: AccessDeps;
  isBot?(userId: string): boolean;
  readonly logger?: Logger;
}

export const promptContextSchema = z
  .object({
    guildId: id,
    askerId: userIdField,
    text: z
      .string()
      .max(100_000)
      .nullish()
      .transform((v) => v ?? null),
    /** Mentioned members: ids, `<@id>` tags or names (names resolve through identity). */
    mentionedIds: z.array(z.string().max(256)).max(100).default([]),
    threadParticipantIds: z.array(z.string().max(256)).max(100).default([]),
    tokenBudget: z.number().int().min(16).max(200_000).optional(),
    entityHint: z
      .string()
      .min(1)
      .max(200)
      .nullish()
      .transform((v) => v ?? null),
    /** Facts scoring below this are left out (default `retrieval.minScore`). */
    minScore: z.number().min(0).max(1).optional(),
    /**
     * The channel the reply goes to (and the asker): only facts, digests and names the audience
     * policy lets it see. Without it, `access.requireAudience` (default on) leaves only channel-free facts.
     */
    audience: audienceSchema.nullish().transform((v) => v ?? null),
  })
  .strict();
export type PromptContextInput = z.input<typeof promptContextSchema>;

/** What core's own callers add to a prompt context (not part of the public input). */
export interface PromptContextExtras {
  /**
   * Other people present in the conversation (the recent speakers of `context()`): considered for
   * the section about the people together only, without sections of their own.
   */
  readonly companions?: readonly string[];
}

export interface PromptContextService {
  /** Recall for the people in the conversation and the server, rendered under a token budget. Never throws. */
  promptContext(input: PromptContextInput, extras?: PromptContextExtras): Promise<PromptContext>;
}

function contextOf(
  block: { text: string; facts: readonly ScoredFact[]; citations: readonly Citation[] },
  rest: Pick<PromptContext, 'resolutions' | 'warnings'>,
  deps: PromptContextDeps,
): PromptContext {
  const citations = block.citations;
  return {
    injectionBlock: block.text,
    facts: block.facts,
    citations,
    resolutions: rest.resolutions,
    warnings: rest.warnings,
    usage: { promptTokens: Math.ceil(block.text.length / CHARS_PER_TOKEN) },
    applyCitations: (text) => applyCitations(typeof text === 'string' ? text : '', citations),
    cite: (text) =>
      cite(text, { citations }, { embedder: deps.embedder, minScore: deps.retrieval.citationMinScore }),
  };
}

const emptyBlock = { text: '', facts: [], citations: [] };
/** Most people considered together (participants first, then companions). */
const MAX_PEOPLE = 12;

/** Builds promptContext (see SPEC §5). */
export function createPromptContextService(deps: PromptContextDeps): PromptContextService {
  const isBot = (u: string) => deps.isBot?.(u) === true;
  return {
    async promptContext(input, extras = {}) {
      const parsed = checkInput(promptContextSchema, input, 'promptContext');
      if (!parsed.ok)
        return contextOf(emptyBlock, { resolutions: [], warnings: [RecallWarning.QUERY_INVALID] }, deps);
      const q = parsed.data;
      try {
        return await build(deps, q, isBot, extras.companions ?? []);
      } catch (error) {
        deps.logger?.({
          level: 'error',
          event: 'prompt_context.failed',
          data: { guildId: q.guildId },
          error,
        });
        return contextOf(emptyBlock, { resolutions: [], warnings: [RecallWarning.STORE_UNAVAILABLE] }, deps);
      }
    },
  };
}

async function build(
  deps: PromptContextDeps,
  q: z.output<typeof promptContextSchema>,
  isBot: (u: string) => boolean,
  companions: readonly string[],
): Promise<PromptContext> {
  const r = deps.retrieval;
  // Both recalls (and the participant check) share one opt-out read, embedding and name resolution.
  const session = new RecallSession(deps.store, deps.embedder);
  const empty: RecallResult = { facts: [], warnings: [], degradedChannels: [] };
  // The server recall needs nothing about the people, so it starts with their resolution; so does
  // the read of the graph nodes of the members named by id (the people recall's first read).
  const server =
    r.serverTopK > 0
      ? deps.recall.recall(
          {
            guildId: q.guildId,
            text: q.text,
            scope: 'server',
            audience: q.audience,
            topK: r.serverTopK,
            maxPerSubject: r.serverTopK,
            ...(q.minScore !== undefined ? { minScore: q.minScore } : {}),
          },
          session,
        )
      : Promise.resolve(empty);
  const named = [q.askerId, ...[...q.mentionedIds, ...q.threadParticipantIds].map(directId)];
  quiet(session.nodesOfUsers(q.guildId, [...new Set(named.filter((u) => u !== null))]));
  const [who, visible] = await Promise.all([
    resolveParticipants(
      deps.store,
      { guildId: q.guildId, askerId: q.askerId, others: [...q.mentionedIds, ...q.threadParticipantIds] },
      isBot,
      session,
    ),
    session.visibility(deps.access, q.guildId, q.audience),
  ]);
  const warnings = new Set<RecallWarning>(who.warnings);
  const pairs = discoveryPairs(who.people);
  // Every read below depends only on who is in the conversation, so they all start together: the
  // people recall, the names and digests of the people and the server, and the section about the
  // people together (whose graph, entity and fact reads the recalls share through the session).
  const labelOf = memberLabels(deps.store, deps.identity, q.guildId, visible);
  // A digest summarises facts of every channel it was built from: shown only where all are visible.
  const digest = async (subjectId: string | null) => {
    const d = await deps.store.digests.getDigest(q.guildId, subjectId);
    return d && digestVisible(d, visible) ? d.text : null;
  };
  const personReads = who.people.map((person) => quiet(Promise.all([labelOf(person), digest(person)])));
  const serverDigest = quiet(digest(null));
  const together = quiet(between(deps, q.guildId, [...who.people, ...companions], session, visible, isBot));
  const [subjects, serverRecall] = await Promise.all([
    who.people.length > 0
      ? deps.recall.recall(
          {
            guildId: q.guildId,
            text: q.text,
            scope: 'subjects',
            subjectIds: [...who.people],
            pairIds: pairs,
            entityHint: q.entityHint,
            audience: q.audience,
            topK: r.topK,
            maxPerSubject: r.maxPerSubject,
            ...(q.minScore !== undefined ? { minScore: q.minScore } : {}),
          },
          session,
        )
      : empty,
    server,
  ]);
  for (const w of [...subjects.warnings, ...serverRecall.warnings])
    if (w !== RecallWarning.BUDGET_TRIMMED) warnings.add(w);
  const groups = await together;
  // Everyone printed by name: the people, the members of the groups, the speakers of the facts.
  const printed = new Set<string>(who.people);
  for (const g of groups)
    for (const id of [...g.members, ...g.items.map((i) => i.fact.attribution.speakerId)])
      if (id !== null) printed.add(id);
  for (const f of [...subjects.facts, ...serverRecall.facts]) {
    const speaker = f.fact.attribution.speakerId;
    if (speaker !== null && speaker !== f.fact.subjectId) printed.add(speaker);
  }
  const labels = new Map<string, MemberLabel>();
  await Promise.all([...printed].map(async (id) => labels.set(id, await labelOf(id))));
  const sections: BlockSection[] = [];
  for (const [i, person] of who.people.entries()) {
    const facts = subjects.facts.filter((f) => f.fact.subjectId === person);
    const [n, d] = await (personReads[i] as Promise<[MemberLabel, string | null]>);
    const kind = person === q.askerId ? 'asker' : 'user';
    sections.push({ kind, subjectId: person, name: n.label, otherNames: n.others, digest: d, facts });
  }
  const recalled = new Map([...subjects.facts, ...serverRecall.facts].map((f) => [f.fact.id, f]));
  sections.push({
    kind: 'between',
    groups: renderBetween(groups, (id) => labels.get(id)?.label ?? 'a member', recalled),
  });
  sections.push({
    kind: 'server',
    subjectId: null,
    name: null,
    otherNames: [],
    digest: await serverDigest,
    facts: serverRecall.facts,
  });
  const speakerName = (f: ScoredFact) => {
    const a = f.fact.attribution;
    if (a.speakerId === null || a.speakerId === f.fact.subjectId)
      return a.type === 'third_party' ? (a.speakerName ?? 'another member') : null;
    return labels.get(a.speakerId)?.label ?? a.speakerName ?? 'another member';
  };
  const block = buildInjectionBlock(sections, q.tokenBudget ?? r.defaultTokenBudget, speakerName);
  if (block.trimmed) warnings.add(RecallWarning.BUDGET_TRIMMED);
  return contextOf(block, { resolutions: who.resolutions, warnings: [...warnings] }, deps);
}

/**
 * The section about the people together (see `betweenPeople`): the participants and companions
 * who are neither bots nor opted out. A failure leaves the section out (logged), never the block.
 */
async function between(
  deps: PromptContextDeps,
  guildId: string,
  ids: readonly string[],
  session: RecallSession,
  visible: Visibility,
  isBot: (u: string) => boolean,
): Promise<BetweenGroup[]> {
  try {
    const optedOut = await session.optedOut(guildId);
    const excluded = (u: string) => isBot(u) || optedOut.has(u);
    const people = [...new Set(ids)].filter((u) => !excluded(u)).slice(0, MAX_PEOPLE);
    if (people.length < 2) return [];
    return await betweenPeople({
      store: deps.store,
      session,
      edgesPerPerson: deps.retrieval.fanOut,
      guildId,
      people,
      visible,
      now: deps.clock.now(),
      excluded,
    });
  } catch (error) {
    deps.logger?.({ level: 'warn', event: 'prompt_context.between_failed', data: { guildId }, error });
    return [];
  }
}

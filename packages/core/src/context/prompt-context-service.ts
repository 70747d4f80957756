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
import { RecallSession } from '../recall/recall-session.js';
import type { RecallResult, RecallService, ScoredFact } from '../recall/recall-types.js';
import { checkInput, idField as id, userIdField } from '../validation/index.js';
import { renderBetween } from './between-block.js';
import { type BetweenGroup, betweenPeople } from './between-people.js';
import { applyCitations } from './citations.js';
import { cite } from './cite.js';
import { type BlockSection, buildInjectionBlock, CHARS_PER_TOKEN } from './injection-block.js';
import { type MemberLabel, memberLabels } from './member-labels.js';
import { discoveryPairs, resolveParticipants } from './participants.js';
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
  const who = await resolveParticipants(
    deps.store,
    { guildId: q.guildId, askerId: q.askerId, others: [...q.mentionedIds, ...q.threadParticipantIds] },
    isBot,
    session,
  );
  const warnings = new Set<RecallWarning>(who.warnings);
  const visible = await session.visibility(deps.access, q.guildId, q.audience);
  const pairs = discoveryPairs(who.people);
  const empty: RecallResult = { facts: [], warnings: [], degradedChannels: [] };
  const [subjects, server] = await Promise.all([
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
      : empty,
  ]);
  for (const w of [...subjects.warnings, ...server.warnings])
    if (w !== RecallWarning.BUDGET_TRIMMED) warnings.add(w);
  const labelOf = memberLabels(deps.store, deps.identity, q.guildId, visible);
  const labels = new Map<string, MemberLabel>();
  const nameOf = async (userId: string) => {
    const n = await labelOf(userId);
    labels.set(userId, n);
    return n;
  };
  // A digest summarises facts of every channel it was built from: shown only where all are visible.
  const digest = async (subjectId: string | null) => {
    const d = await deps.store.digests.getDigest(q.guildId, subjectId);
    return d && digestVisible(d, visible) ? d.text : null;
  };
  const sections: BlockSection[] = [];
  for (const person of who.people) {
    const facts = subjects.facts.filter((f) => f.fact.subjectId === person);
    const [n, d] = await Promise.all([nameOf(person), digest(person)]);
    const kind = person === q.askerId ? 'asker' : 'user';
    sections.push({ kind, subjectId: person, name: n.label, otherNames: n.others, digest: d, facts });
  }
  // The people together, after the recalls: their graph, entity and fact reads are the session's.
  const groups = await between(deps, q.guildId, [...who.people, ...companions], session, visible, isBot);
  for (const id of groups.flatMap((g) => [...g.members, ...g.items.map((i) => i.fact.attribution.speakerId)]))
    if (id !== null) await nameOf(id);
  const recalled = new Map([...subjects.facts, ...server.facts].map((f) => [f.fact.id, f]));
  sections.push({
    kind: 'between',
    groups: renderBetween(groups, (id) => labels.get(id)?.label ?? 'a member', recalled),
  });
  sections.push({
    kind: 'server',
    subjectId: null,
    name: null,
    otherNames: [],
    digest: await digest(null),
    facts: server.facts,
  });
  for (const f of [...subjects.facts, ...server.facts]) {
    const speaker = f.fact.attribution.speakerId;
    if (speaker !== null && speaker !== f.fact.subjectId) await nameOf(speaker);
  }
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

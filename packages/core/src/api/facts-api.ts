import type { AccessDeps } from '../access/visibility.js';
import { ErrorCode, MemoryError } from '../errors/index.js';
import { isValidAlias, normalizeAlias } from '../identity/aliases.js';
import type { Candidate } from '../ingest/candidate.js';
import type { IngestDeps } from '../ingest/deps.js';
import { buildFact, historyEntry } from '../ingest/fact-builder.js';
import { insertFact } from '../ingest/fact-inserts.js';
import { reinforceFact, retireFact } from '../ingest/fact-updates.js';
import { type GateVerdict, hygieneGate, injectionGate } from '../ingest/gates.js';
import { AliasSource, FactHistoryKind } from '../model/enums.js';
import type { Fact, FactHistoryEntry, Page } from '../model/fact.js';
import {
  type FactSearchInput,
  type ListForSubjectInput,
  listForSubject,
  searchFacts,
} from '../recall/fact-search.js';
import type { RecallResult, RecallService } from '../recall/recall-types.js';
import { normalizeText } from '../text/analyze.js';
import { parseInput, schemaInvalid } from '../validation/index.js';
import {
  factRefSchema,
  forgetSchema,
  getAllSchema,
  type RememberInput,
  rememberSchema,
  updateSchema,
} from './facts-inputs.js';

export type { RememberInput } from './facts-inputs.js';

import { IdempotentCommand, inputHash } from './idempotency.js';
import { manualCandidate } from './manual-candidate.js';

/** A manual fact's text: hygiene, and never a directive to the assistant. */
function factTextVerdict(text: string): GateVerdict {
  const hygiene = hygieneGate(text);
  return hygiene.ok ? injectionGate(text, []) : hygiene;
}

export interface FactsApiDeps extends IngestDeps {
  readonly ensureStarted: () => Promise<void>;
  readonly recall: RecallService;
  readonly access: AccessDeps;
}

/** `memory.facts`: manual facts and direct access. Manual facts are core tier and never decay. */
export function createFactsApi(deps: FactsApiDeps) {
  const { store, clock } = deps;

  const requireFact = async (guildId: string, factId: string): Promise<Fact> => {
    const [fact] = await store.facts.get(guildId, [factId]);
    if (!fact) throw new MemoryError(ErrorCode.NOT_FOUND, 'no fact with this id in the guild');
    return fact;
  };

  const assertSubjectAllowed = async (guildId: string, subjectId: string | null) => {
    if (subjectId === null) return;
    if (deps.isBot(subjectId) || (await store.consent.isOptedOut(guildId, subjectId))) {
      throw new MemoryError(ErrorCode.SUBJECT_NOT_ALLOWED, 'the subject is a bot or has opted out');
    }
  };

  return {
    /** Stores a manual fact (or reinforces an identical active one). */
    async remember(input: RememberInput): Promise<Fact> {
      const v = parseInput(rememberSchema, input, 'facts.remember');
      await deps.ensureStarted();
      await assertSubjectAllowed(v.guildId, v.subjectId);
      const text = v.text.trim();
      const verdict = factTextVerdict(text);
      if (!verdict.ok)
        throw schemaInvalid('facts.remember', [
          { path: ['text'], code: verdict.reason, message: `rejected: ${verdict.reason}` },
        ]);
      const candidate = manualCandidate(v, text);
      const command =
        v.idempotencyKey === undefined
          ? null
          : new IdempotentCommand(store, v.guildId, v.idempotencyKey, inputHash(v));
      const prior = await command?.replay();
      if (prior) return prior;
      const at = clock.now();
      if (v.observedAt !== undefined && v.observedAt.getTime() > at.getTime())
        throw schemaInvalid('facts.remember', [
          { path: ['observedAt'], code: 'too_big', message: 'observedAt is after now' },
        ]);
      const existing = await store.facts.findByNormalizedText(
        v.guildId,
        v.subjectId,
        candidate.normalizedText,
      );
      // Embedded before the transaction: no model or network call runs inside one.
      const vector = existing ? null : ((await deps.embedder.embed([text]))[0] as Float32Array);
      const write = () =>
        existing
          ? reinforceFact(deps, existing, candidate, at)
          : insertFact(
              store,
              {
                ...buildFact(candidate, v.guildId, deps.ids, at, deps.config.lifecycle),
                ...(v.observedAt !== undefined ? { observedAt: v.observedAt } : {}),
              },
              candidate,
              vector as Float32Array,
              at,
              'manual',
            );
      const { fact, replayed } = command
        ? await command.run(write)
        : { fact: await store.transaction(write), replayed: false };
      if (replayed) return fact;
      if (v.subjectUsername && v.subjectId) {
        const alias = normalizeAlias(v.subjectUsername);
        if (isValidAlias(alias))
          await store.aliases.upsert({
            guildId: v.guildId,
            alias,
            userId: v.subjectId,
            source: AliasSource.SUBJECT_USERNAME,
            weight: 0.95,
            updatedAt: at,
          });
      }
      deps.events.emit('FactCommitted', { guildId: v.guildId, fact, reinforcement: existing !== null });
      return fact;
    },

    async get(input: { guildId: string; factId: string }): Promise<Fact> {
      parseInput(factRefSchema, input, 'facts.get');
      await deps.ensureStarted();
      return requireFact(input.guildId, input.factId);
    },

    /** Active facts of a subject (optionally with server facts), newest first, or a random sample. */
    async getAll(input: {
      guildId: string;
      subjectId: string | null;
      includeServer?: boolean;
      limit?: number;
      random?: boolean;
    }): Promise<Fact[]> {
      parseInput(getAllSchema, input, 'facts.getAll');
      await deps.ensureStarted();
      const page = await store.facts.list({
        guildId: input.guildId,
        ...(input.subjectId === null
          ? { serverOnly: true }
          : { subjectIds: [input.subjectId], includeServer: input.includeServer ?? false }),
        limit: Math.min(Math.max(1, input.limit ?? 100), 1000),
        order: input.random ? 'random' : 'newest',
      });
      return [...page.items];
    },

    /** Rewrites a fact's text in place; the previous text is kept in its history. */
    async update(input: {
      guildId: string;
      factId: string;
      text: string;
      reason?: string;
      actorId?: string;
    }): Promise<Fact> {
      parseInput(updateSchema, input, 'facts.update');
      await deps.ensureStarted();
      const current = await requireFact(input.guildId, input.factId);
      const text = input.text.trim();
      const verdict = factTextVerdict(text);
      if (!verdict.ok)
        throw schemaInvalid('facts.update', [
          { path: ['text'], code: verdict.reason, message: `rejected: ${verdict.reason}` },
        ]);
      const at = clock.now();
      const [vector] = await deps.embedder.embed([text]);
      const updated = await store.transaction(async () => {
        const next = await store.facts.update(
          input.guildId,
          input.factId,
          { text, normalizedText: normalizeText(text) },
          { at, expectedVersion: current.version },
        );
        if (!next) throw new MemoryError(ErrorCode.CONFLICT, 'the fact changed concurrently; retry');
        await store.vectors.upsert([
          {
            kind: 'fact',
            id: next.id,
            guildId: next.guildId,
            subjectId: next.subjectId,
            active: next.validUntil === null && next.supersededById === null,
            vector: vector as Float32Array,
          },
        ]);
        await store.facts.appendHistory([
          historyEntry(next, FactHistoryKind.UPDATED, at, input.reason ?? 'updated', {
            previousText: current.text,
            actorId: input.actorId ?? null,
          }),
        ]);
        return next;
      });
      deps.events.emit('FactSuperseded', {
        guildId: input.guildId,
        subjectId: updated.subjectId,
        oldFactId: updated.id,
        newFactId: updated.id,
        reason: 'update',
      });
      return updated;
    },

    /** Invalidates a fact (validUntil = now). Nothing but purge deletes a fact. */
    async forget(input: {
      guildId: string;
      factId: string;
      reason?: string;
      actorId?: string;
    }): Promise<Fact> {
      parseInput(forgetSchema, input, 'facts.forget');
      await deps.ensureStarted();
      const current = await requireFact(input.guildId, input.factId);
      if (current.validUntil !== null || current.supersededById !== null) return current;
      const at = clock.now();
      const retired = await store.transaction(() =>
        retireFact(
          store,
          current,
          at,
          FactHistoryKind.INVALIDATED,
          input.reason ?? 'forgotten',
          null,
          input.actorId ?? null,
        ),
      );
      deps.events.emit('FactSuperseded', {
        guildId: input.guildId,
        subjectId: current.subjectId,
        oldFactId: current.id,
        newFactId: null,
        reason: input.reason ?? 'forget',
      });
      return retired ?? current;
    },

    async reinforce(input: { guildId: string; factId: string }): Promise<Fact> {
      parseInput(factRefSchema, input, 'facts.reinforce');
      await deps.ensureStarted();
      const current = await requireFact(input.guildId, input.factId);
      const candidate: Candidate = {
        subjectId: current.subjectId,
        speakerId: null,
        speakerName: null,
        text: current.text,
        normalizedText: current.normalizedText,
        category: current.category,
        confidence: current.confidence,
        sources: [],
        channels: [],
        relatedUserIds: [],
        entities: [],
        relations: [],
        origin: 'manual',
        actorId: null,
      };
      const fact = await store.transaction(() => reinforceFact(deps, current, candidate, clock.now()));
      deps.events.emit('FactCommitted', { guildId: input.guildId, fact, reinforcement: true });
      return fact;
    },

    async history(input: { guildId: string; factId: string }): Promise<FactHistoryEntry[]> {
      parseInput(factRefSchema, input, 'facts.history');
      await deps.ensureStarted();
      await requireFact(input.guildId, input.factId);
      return store.facts.history(input.guildId, input.factId);
    },

    /** A page of a subject's facts (cursor pagination) or a random sample. */
    async listForSubject(input: ListForSubjectInput): Promise<Page<Fact>> {
      await deps.ensureStarted();
      return listForSubject(store, deps.access, input);
    },

    /** Hybrid (vector + keyword + entity) search over a guild's facts, zero model calls. Never throws. */
    async search(input: FactSearchInput): Promise<RecallResult> {
      await deps.ensureStarted();
      return searchFacts(deps.recall, input);
    },
  };
}

export type FactsApi = ReturnType<typeof createFactsApi>;

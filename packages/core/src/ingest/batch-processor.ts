import { ErrorCode, MemoryError } from '../errors/index.js';
import { type ExtractionOutput, extractionOutputSchema } from '../extraction/extraction-contract.js';
import { AliasSource, BudgetStep, MeterPurpose } from '../model/enums.js';
import type { StoredMessage } from '../model/message.js';
import type { BatchCompleted } from '../observability/events.js';
import { quiet } from '../recall/recall-session.js';
import { mineFactAlias, mineSelfAliases } from './alias-mining.js';
import type { BatchCompletion } from './batch-completion.js';
import { type BatchContext, buildBatchContext } from './batch-context.js';
import { type CommitOutcome, commitActions } from './commit.js';
import type { IngestDeps } from './deps.js';
import { refreshDigests } from './digests.js';
import type { ErasureFence } from './erasure-fence.js';
import { EXTRACTION_JSON_SCHEMA } from './extraction-json-schema.js';
import { renderExtractionPrompt } from './extraction-prompt.js';
import type { ReapplyHooks } from './fence-reapply.js';
import { resolveMemberNames } from './member-names.js';
import { noiseGate } from './noise-gate.js';
import { reconcile } from './reconcile.js';
import { callStructured, type StructuredResult } from './structured-call.js';
import { vetOperations } from './vetting.js';

export type BatchReport = BatchCompleted;

function report(
  guildId: string,
  subjectKeys: readonly string[],
  messages: number,
  patch: Partial<BatchReport>,
): BatchReport {
  return {
    guildId,
    subjectKey: subjectKeys[0] ?? '',
    subjectKeys,
    messages,
    adds: 0,
    reinforces: 0,
    supersessions: 0,
    invalidations: 0,
    rejected: 0,
    llmCalls: 0,
    skipped: null,
    ...patch,
  };
}

/** Binds names members state for themselves ("my name is Sam") to the author. */
async function mineMessageAliases(deps: IngestDeps, messages: readonly StoredMessage[]): Promise<void> {
  for (const m of messages) {
    if (m.authorIsBot || deps.isBot(m.authorId)) continue;
    for (const mined of mineSelfAliases(m.content)) {
      await deps.store.aliases.upsert({
        guildId: m.guildId,
        alias: mined.alias,
        userId: m.authorId,
        source: mined.source,
        weight: mined.weight,
        updatedAt: deps.clock.now(),
      });
    }
  }
}

export interface ExtractBatchOptions {
  /**
   * The batch's completion (messages processed, watermark moved): applied inside the commit
   * transaction when facts are committed; when nothing is committed the caller settles it.
   */
  readonly completion?: BatchCompletion;
  /** Opened before the batch's messages were read: erasures since then are honoured at commit. */
  readonly fence?: ErasureFence;
  /**
   * Where transactions are not atomic, told when the commit's writes about people (facts, vectors,
   * graph) have landed and when the digests and aliases that follow them are written, while the
   * batch is marked done: the caller's re-application of erasures (fence-reapply.ts). Not used on
   * atomic stores, nor when nothing is committed; the caller re-applies itself then.
   */
  readonly reapply?: ReapplyHooks;
}

/** A key's claimed messages after screening: what may go to the model, or why nothing does. */
export type Screened =
  | { readonly skip: BatchReport }
  | { readonly subjectKey: string; readonly claimed: number; readonly messages: readonly StoredMessage[] };

/**
 * Everything that happens to one key's batch before any model call: messages of members who
 * opted out are dropped, self-stated names are mined, and the noise gate may close the batch.
 */
export async function screenBatch(
  deps: IngestDeps,
  guildId: string,
  subjectKey: string,
  claimed: readonly StoredMessage[],
  scope: 'member' | 'community',
): Promise<Screened> {
  const n = claimed.length;
  const skip = (reason: string) => ({ skip: report(guildId, [subjectKey], n, { skipped: reason }) });
  if (n === 0) return skip('empty');
  // Messages of members who opted out after writing them are never mined, nor sent to a model.
  const optedOut = new Set(await deps.store.consent.optedOutUsers(guildId));
  const messages = claimed.filter((m) => !optedOut.has(m.authorId));
  if (messages.length === 0) return skip('opted_out');
  if (scope === 'member') await mineMessageAliases(deps, messages);
  if (!deps.llm) return skip('no_llm');
  if (deps.config.extraction.noiseGate && !noiseGate(messages.map((m) => m.content)).extract)
    return skip('noise');
  return { subjectKey, claimed: n, messages };
}

/**
 * Extracts one batch end to end: screening, then one extraction call, vetting, reconcile and a
 * single commit. Throws on model or store failure so the caller can retry the batch; returns a
 * report (with `skipped`) when there was nothing to do.
 */
export async function extractBatch(
  deps: IngestDeps,
  guildId: string,
  subjectKey: string,
  claimed: readonly StoredMessage[],
  scope: 'member' | 'community',
  options: ExtractBatchOptions = {},
): Promise<BatchReport> {
  const screened = await screenBatch(deps, guildId, subjectKey, claimed, scope);
  if ('skip' in screened) return screened.skip;
  return extractScreened(deps, guildId, [screened], scope, options);
}

/**
 * One extraction call over the screened batches of one guild (several members' batches share a
 * call: the model sees them as one conversation, in time order, each member marked as an author),
 * then vetting, reconcile and a single commit.
 */
export async function extractScreened(
  deps: IngestDeps,
  guildId: string,
  parts: readonly Extract<Screened, { messages: unknown }>[],
  scope: 'member' | 'community',
  options: ExtractBatchOptions = {},
): Promise<BatchReport> {
  const keys = parts.map((p) => p.subjectKey);
  const n = parts.reduce((sum, p) => sum + p.claimed, 0);
  const llm = deps.llm;
  if (!llm) return report(guildId, keys, n, { skipped: 'no_llm' });
  const messages = parts.flatMap((p) => p.messages).sort(chronological);
  const budget = await deps.budgets.check(guildId);
  if (budget.step === BudgetStep.SKIP_EXTRACTION) return report(guildId, keys, n, { skipped: 'budget' });

  const ctx = await buildBatchContext(deps, guildId, messages, scope, scope === 'member' ? keys : []);
  // A reply's charge (the extraction's, then reconcile's) is written while the batch goes on with
  // reads only. It is awaited before the batch is marked done and before the batch returns, so
  // a failed charge still fails the batch, and before a repair turn's budget check, which must
  // see it.
  const charges: Promise<void>[] = [];
  const charged = async () => {
    await Promise.all(charges);
  };
  try {
    let result: StructuredResult<ExtractionOutput>;
    try {
      result = await callStructured<ExtractionOutput>({
        llm,
        schema: extractionOutputSchema,
        jsonSchema: EXTRACTION_JSON_SCHEMA,
        mode: deps.structuredMode,
        name: 'extraction_output',
        messages: renderExtractionPrompt(ctx.input),
        purpose: MeterPurpose.EXTRACTION,
        maxTokens: deps.config.extraction.maxTokens,
        guildId,
        task: { kind: 'extraction', input: ctx.input },
        onUsage: async (tokens) => {
          charges.push(quiet(deps.budgets.charge(guildId, tokens)));
        },
        // A ceiling reached by the first reply stops the repair turn too.
        mayRepair: async () => {
          await charged();
          return (await deps.budgets.check(guildId)).step !== BudgetStep.SKIP_EXTRACTION;
        },
      });
    } catch (error) {
      if (MemoryError.is(error, ErrorCode.BUDGET_EXCEEDED))
        return report(guildId, keys, n, { llmCalls: 1, skipped: 'budget' });
      throw error;
    }
    let llmCalls = result.calls;
    if (result.value.operations.length === 0)
      return report(guildId, keys, n, { llmCalls, skipped: 'empty_output' });

    const vetted = vetOperations(result.value, ctx, deps.config.extraction);
    const rejected = Object.values(vetted.rejected).reduce((a, b) => a + b, 0);
    if (rejected > 0)
      deps.logger?.({ level: 'debug', event: 'extraction.rejected', data: { guildId, ...vetted.rejected } });
    if (vetted.candidates.length === 0)
      return report(guildId, keys, n, { llmCalls, rejected, skipped: 'gated' });

    const nameOf = (subjectId: string | null) =>
      subjectId === null ? 'the server' : (ctx.roster.nameOfUser(subjectId) ?? 'a member');
    const atomic = deps.store.capabilities.transactions === 'atomic';
    // Not atomic: the commit's erasure check goes out now; later erasures are re-applied (fence-reapply.ts).
    const erased = !atomic && options.fence ? quiet(options.fence.check()) : undefined;
    // Likewise the members the candidates name, for the new facts' graphs.
    const names = atomic ? undefined : quiet(resolveMemberNames(deps.store, guildId, vetted.candidates));
    const plan = await reconcile(deps, guildId, vetted.candidates, {
      allowModel: budget.step === BudgetStep.NONE,
      subjectName: nameOf,
      charge: async (tokens) => {
        charges.push(quiet(deps.budgets.charge(guildId, tokens)));
      },
    });
    llmCalls += plan.llmCalls;
    // On an atomic store the commit is one transaction that nothing else may write into: the
    // charges land before it, the digests after it. Elsewhere the charges go out beside the
    // commit's writes and are awaited before "done", so a failed charge still leaves the batch to
    // be retried, and the digests are refreshed while the batch is marked done.
    // Whether it wrote anything about people (an alias, a digest).
    const afterFacts = async (committed: CommitOutcome): Promise<boolean> => {
      const aliases = await mineFactAliases(deps, guildId, ctx, committed.added);
      const digests = await refreshDigests(
        deps,
        guildId,
        committed.added.map((f) => f.subjectId),
        nameOf,
      );
      llmCalls += digests.calls;
      return aliases > 0 || digests.wrote;
    };
    if (atomic) await charged();
    const outcome = await commitActions(deps, guildId, plan.actions, {
      completion: options.completion,
      fence: options.fence,
      ...(atomic
        ? {}
        : {
            split: {
              erased,
              names,
              beforeDone: charged,
              alongside: async (committed) => {
                options.reapply?.landed();
                const wrote = await afterFacts(committed);
                await options.reapply?.finished(wrote);
              },
            },
          }),
    });
    if (atomic) await afterFacts(outcome);
    return report(guildId, keys, n, {
      adds: outcome.added.length - outcome.superseded.length - outcome.invalidated.length,
      reinforces: outcome.reinforced.length,
      supersessions: outcome.superseded.length,
      invalidations: outcome.invalidated.length,
      rejected: rejected + plan.droppedParaphrases,
      llmCalls,
    });
  } finally {
    await charged();
  }
}

const chronological = (a: StoredMessage, b: StoredMessage) =>
  a.createdAt.getTime() - b.createdAt.getTime() ||
  (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0);

async function mineFactAliases(
  deps: IngestDeps,
  guildId: string,
  ctx: BatchContext,
  added: readonly {
    readonly subjectId: string | null;
    readonly text: string;
    readonly attribution: { readonly speakerId: string | null };
  }[],
): Promise<number> {
  let written = 0;
  for (const fact of added) {
    if (
      fact.subjectId === null ||
      (fact.attribution.speakerId !== null && fact.attribution.speakerId !== fact.subjectId)
    )
      continue;
    const mined = mineFactAlias(fact.text, ctx.roster.nameOfUser(fact.subjectId) ?? '');
    if (!mined) continue;
    written++;
    await deps.store.aliases.upsert({
      guildId,
      alias: mined.alias,
      userId: fact.subjectId,
      source: AliasSource.REAL_NAME,
      weight: mined.weight,
      updatedAt: deps.clock.now(),
    });
  }
  return written;
}

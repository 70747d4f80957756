import { retireFact } from '../ingest/fact-updates.js';
import { FactHistoryKind } from '../model/enums.js';
import type { Fact, SourceRef } from '../model/fact.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { normalizeText } from '../text/analyze.js';

/**
 * The text a fact keeps once the only messages it was learned from are gone: the claim itself
 * (often the message nearly word for word) must not outlive them, so it is replaced.
 */
export const FORGOTTEN_FACT_TEXT = 'forgotten: the message it was learned from was deleted';

/** What forgetting some messages does to the facts that cite them (computed by core, applied by stores). */
export interface ForgetPlan {
  /** Facts citing the messages, with the sources that remain once their refs are removed. */
  readonly strip: readonly { readonly fact: Fact; readonly sources: readonly SourceRef[] }[];
  /** Ids of the active facts among them that no remaining source supports: they are retired. */
  readonly retire: ReadonlySet<string>;
  /** Ids of every fact left without a source (active or not): its text is replaced, its vector dropped. */
  readonly scrub: ReadonlySet<string>;
}

/**
 * A fact learned from messages (it has sources) and left with none once these messages are gone
 * is retired; a fact that other messages also support only loses the refs. Manual and imported
 * facts without sources never cite a message, so they are never touched.
 */
export function planForget(citing: readonly Fact[], messageIds: ReadonlySet<string>): ForgetPlan {
  const strip: { fact: Fact; sources: SourceRef[] }[] = [];
  const retire = new Set<string>();
  const scrub = new Set<string>();
  for (const fact of citing) {
    const sources = fact.sources.filter((s) => !messageIds.has(s.messageId));
    if (sources.length === fact.sources.length) continue;
    strip.push({ fact, sources });
    if (sources.length > 0) continue;
    scrub.add(fact.id);
    if (fact.validUntil === null && fact.supersededById === null) retire.add(fact.id);
  }
  return { strip, retire, scrub };
}

export interface ForgetOutcome {
  readonly retired: readonly Fact[];
  readonly sourcesRemoved: number;
}

/**
 * Applies a plan inside the caller's transaction: the refs (with their snippets) leave every
 * citing fact; a fact left with no source gets FORGOTTEN_FACT_TEXT and loses its vector, and if it
 * was active it is retired (`validUntil`, relation evidence dropped, history `invalidated`); the
 * profile digests of those subjects are cleared so they regenerate without them. Stores that
 * purge physically then rewrite their indexes (compactDeleted).
 */
export async function applyForgetPlan(
  store: MemoryStore,
  guildId: string,
  plan: ForgetPlan,
  at: Date,
  detail: string,
): Promise<ForgetOutcome> {
  const retired: Fact[] = [];
  let sourcesRemoved = 0;
  const subjects = new Set<string | null>();
  for (const { fact, sources } of plan.strip) {
    const scrubbed = plan.scrub.has(fact.id)
      ? { text: FORGOTTEN_FACT_TEXT, normalizedText: normalizeText(FORGOTTEN_FACT_TEXT) }
      : {};
    const stripped = await store.facts.update(
      guildId,
      fact.id,
      { sources: [...sources], ...scrubbed },
      { at },
    );
    if (!stripped) continue;
    if (plan.scrub.has(fact.id)) await store.vectors.delete(guildId, 'fact', [fact.id]);
    sourcesRemoved += fact.sources.length - sources.length;
    if (!plan.retire.has(fact.id)) continue;
    const done = await retireFact(store, stripped, at, FactHistoryKind.INVALIDATED, detail, null);
    if (done) {
      retired.push(done);
      subjects.add(done.subjectId);
    }
  }
  if (plan.strip.length > 0) await store.admin.compactDeleted();
  for (const subjectId of subjects) {
    const digest = await store.digests.getDigest(guildId, subjectId);
    if (digest && digest.text !== '')
      await store.digests.putDigest({
        guildId,
        subjectId,
        text: '',
        generatedAt: at,
        sourceFactCount: 0,
        channels: [],
      });
  }
  return { retired, sourcesRemoved };
}

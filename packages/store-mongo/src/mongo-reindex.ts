import { indexTerms } from '@permafrost/core/store';
import type { MongoContext } from './mongo-context.js';
import type { MessageDoc } from './mongo-conversation-docs.js';
import type { FactDoc } from './mongo-memory-docs.js';
import { messageTerms } from './mongo-message-mapping.js';

const ANALYZER_KEY = 'terms.analyzer';
/** Exercises stop words, stemming and irregular forms: its terms change when core's analysis does. */
const PROBE = "Went running; the children studied mice, geese and better cities' data quickly";
const CHUNK = 200;

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((t, i) => t === b[i]);

/**
 * Keyword terms are stored analysed (core's `indexTerms`). When core's analysis changes (a new
 * stemmer rule, irregular forms), setup re-analyses stored facts and messages whose terms differ,
 * through guarded writes, then records the new analyzer fingerprint. Safe to run from several
 * processes at once.
 */
export async function reindexTermsIfNeeded(ctx: MongoContext): Promise<number> {
  const fingerprint = indexTerms(PROBE).join(' ');
  const stored = await ctx.c.storeMeta.findOne({ _id: ANALYZER_KEY });
  if (stored?.value === fingerprint) return 0;
  let changed = 0;
  const facts = ctx.c.facts.find({}, { projection: { _id: 1, text: 1, terms: 1 } });
  let batch: string[] = [];
  const flushFacts = async () => {
    const out = await ctx.guard.mutateMany(ctx.c.facts, batch, (f: FactDoc | null) => {
      if (!f) return null;
      const terms = indexTerms(f.text);
      return same(terms, f.terms) ? null : { ...f, terms, termCount: terms.length };
    });
    changed += [...out.values()].filter((o) => o.changed).length;
    batch = [];
  };
  for await (const f of facts) {
    if (same(indexTerms(f.text), f.terms ?? [])) continue;
    batch.push(f._id);
    if (batch.length >= CHUNK) await flushFacts();
  }
  if (batch.length > 0) await flushFacts();
  const messages = ctx.c.messages.find(
    {},
    { projection: { _id: 1, content: 1, rawStored: 1, kind: 1, terms: 1 } },
  );
  const flushMessages = async () => {
    const out = await ctx.guard.mutateMany(ctx.c.messages, batch, (m: MessageDoc | null) => {
      if (!m) return null;
      const terms = messageTerms(m as Parameters<typeof messageTerms>[0]);
      return same(terms, m.terms) ? null : { ...m, terms, termCount: terms.length };
    });
    changed += [...out.values()].filter((o) => o.changed).length;
    batch = [];
  };
  for await (const m of messages) {
    if (same(messageTerms(m as unknown as Parameters<typeof messageTerms>[0]), m.terms ?? [])) continue;
    batch.push(m._id);
    if (batch.length >= CHUNK) await flushMessages();
  }
  if (batch.length > 0) await flushMessages();
  await ctx.upsert(ctx.c.storeMeta, ANALYZER_KEY, { value: fingerprint });
  ctx.logger?.({ level: 'info', event: 'store.mongo.terms_reindexed', data: { documents: changed } });
  return changed;
}

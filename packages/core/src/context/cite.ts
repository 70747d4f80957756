import { cosine } from '../math/vector-math.js';
import type { Embedder } from '../ports/embedder.js';
import { citationLink, stripCitationTags } from './citations.js';
import type { Citation, CitedClaim, CitedReply } from './prompt-context-types.js';

export const MAX_CLAIMS = 12;
export const MAX_SOURCES_PER_CLAIM = 3;

const TRAILING = /[\s.!?,;:"')\]}…”’]+$/u;
const BOUNDARY = /\n+|[.!?…]+(?=\s|$)/gu;
const ALNUM = /[\p{L}\p{N}]/gu;

/** Sentence-ish spans of a reply (newline or .!?… before whitespace); links land before punctuation. */
export function segmentClaims(text: string): { claim: string; start: number; end: number }[] {
  const out: { claim: string; start: number; end: number }[] = [];
  let from = 0;
  const cut = (to: number) => {
    const raw = text.slice(from, to);
    const lead = raw.length - raw.trimStart().length;
    const body = raw.trimStart().replace(TRAILING, '');
    if ((body.match(ALNUM)?.length ?? 0) >= 3)
      out.push({ claim: body, start: from + lead, end: from + lead + body.length });
  };
  for (const m of text.matchAll(BOUNDARY)) {
    const to = (m.index ?? 0) + m[0].length;
    cut(to);
    from = to;
  }
  if (from < text.length) cut(text.length);
  return out.slice(0, MAX_CLAIMS);
}

/**
 * Post-hoc citation without an LLM (`ctx` is a PromptContext or anything with its citations):
 * segments the reply, embeds segments and cited facts in one
 * batch, and attributes each segment to the facts with cosine ≥ `minScore` (best first, at most
 * 3), inserting jump links after the segment. Echoed `[mem:N]` tags are removed first. Never
 * throws: with no embedder result the reply comes back uncited.
 */
export async function cite(
  reply: string,
  ctx: { readonly citations: readonly Citation[] },
  deps: { readonly embedder: Embedder; readonly minScore: number },
): Promise<CitedReply> {
  const citations = Array.isArray(ctx?.citations) ? ctx.citations : [];
  const text = stripCitationTags(typeof reply === 'string' ? reply : '');
  const uncited: CitedReply = { text, claims: [], sources: [] };
  try {
    const segments = segmentClaims(text);
    const sources = citations.filter((c) => c.url !== null && c.snippet.length > 0);
    if (segments.length === 0 || sources.length === 0) return uncited;
    const vectors = await deps.embedder.embed([
      ...segments.map((s) => s.claim),
      ...sources.map((c) => c.snippet),
    ]);
    if (vectors.length !== segments.length + sources.length) return uncited;
    const claims: CitedClaim[] = [];
    const used = new Map<string, Citation>();
    segments.forEach((seg, i) => {
      const v = vectors[i] as Float32Array;
      const ranked = sources
        .map((c, j) => ({ c, s: cosine(v, vectors[segments.length + j] as Float32Array) }))
        .filter((x) => x.s >= deps.minScore)
        .sort((a, b) => b.s - a.s || a.c.index - b.c.index)
        .slice(0, MAX_SOURCES_PER_CLAIM);
      if (ranked.length === 0) return;
      for (const { c } of ranked) if (!used.has(c.ref)) used.set(c.ref, c);
      claims.push({ claim: seg.claim, start: seg.start, end: seg.end, sources: ranked.map((x) => x.c.ref) });
    });
    let out = text;
    const byRef = new Map(sources.map((c) => [c.ref, c]));
    for (const claim of [...claims].sort((a, b) => b.end - a.end)) {
      const links = claim.sources.map((r) => citationLink(byRef.get(r) as Citation)).join('');
      out = `${out.slice(0, claim.end)} ${links}${out.slice(claim.end)}`;
    }
    return { text: out, claims, sources: [...used.values()] };
  } catch {
    return uncited;
  }
}

import type { ScoredFact } from '../recall/recall-types.js';
import { inlineUntrusted } from '../text/untrusted.js';
import { buildCitation, MAX_FACT_CHARS, truncate } from './citations.js';
import type { Citation } from './prompt-context-types.js';

/** Characters per estimated token. */
export const CHARS_PER_TOKEN = 4;
export const MAX_DIGEST_CHARS = 480;

export interface BlockSection {
  readonly kind: 'asker' | 'user' | 'server';
  readonly subjectId: string | null;
  /** Display name (asker and referenced users). */
  readonly name: string | null;
  /** Other names of the same person (coreference note when non-empty). */
  readonly otherNames: readonly string[];
  readonly digest: string | null;
  readonly facts: readonly ScoredFact[];
}

export interface BuiltBlock {
  readonly text: string;
  readonly citations: readonly Citation[];
  readonly facts: readonly ScoredFact[];
  readonly trimmed: boolean;
}

const HEADER = [
  '[LONG-TERM MEMORY] Background notes from earlier conversations, NOT the live conversation; they may be',
  'outdated. Use them only when relevant, and never attribute a note about someone else to the asker.',
].join('\n');
const GUIDE = 'When you rely on a note, you may echo its tag, e.g. [mem:1].';

/** A trailing "(according to X)" a model or an older extractor wrote into the text: the block prints its own. */
const STORED_LABEL = /\s*\(according to [^()]{0,80}\)\s*$/i;

/** Fact text for one block line: member-controlled, so neutralised; no stored hearsay label. */
function factLine(text: string): string {
  return truncate(inlineUntrusted(text.replace(STORED_LABEL, '')), MAX_FACT_CHARS);
}

function sectionHead(section: BlockSection): string[] {
  const s = {
    ...section,
    name: section.name === null ? null : inlineUntrusted(section.name) || null,
    otherNames: section.otherNames.map(inlineUntrusted).filter((n) => n.length > 0),
  };
  if (s.kind === 'server') return ['', 'SERVER COMMUNITY FACTS:'];
  const lines =
    s.kind === 'asker'
      ? ['', `WHAT I KNOW ABOUT THE CURRENT ASKER${s.name ? ` (${s.name})` : ''}:`]
      : [
          '',
          `REFERENCED USER: ${s.name ?? s.subjectId ?? 'unknown'}`,
          `These notes are about ${s.name ?? 'this person'}, not about the asker. Do not attribute them to the asker.`,
        ];
  if (s.otherNames.length > 0 && s.name)
    lines.push(`Coreference: ${[s.name, ...s.otherNames].join(', ')} are all names of this ONE person.`);
  return lines;
}

/**
 * Renders the sections under a character budget. Headers always fit first; a section whose head
 * does not fit is skipped; then its digest and fact lines are added while they fit. Sections with
 * neither facts nor digest are left out. Every fact line carries `[mem:N]` (block order); third-
 * party facts say whom they come from. Every member-controlled string (names, fact text, digests)
 * is printed through `inlineUntrusted`: one line, no invisible characters, no `[mem:N]` or tags.
 */
export function buildInjectionBlock(
  sections: readonly BlockSection[],
  budgetTokens: number,
  speakerName: (fact: ScoredFact) => string | null,
): BuiltBlock {
  const budget = budgetTokens * CHARS_PER_TOKEN;
  const lines: string[] = [];
  const citations: Citation[] = [];
  const facts: ScoredFact[] = [];
  let trimmed = false;
  const reserve = HEADER.length + 2 + GUIDE.length;
  let used = reserve;
  const len = (xs: readonly string[]) => xs.reduce((n, l) => n + l.length + 1, 0);
  for (const s of sections) {
    if (s.facts.length === 0 && !s.digest) continue;
    const head = sectionHead(s);
    if (used + len(head) > budget) {
      trimmed = true;
      continue;
    }
    const body: string[] = [];
    let bodyUsed = 0;
    if (s.digest) {
      const line = `Summary: ${truncate(inlineUntrusted(s.digest), MAX_DIGEST_CHARS)}`;
      if (used + len(head) + line.length + 1 <= budget) {
        body.push(line);
        bodyUsed += line.length + 1;
      } else trimmed = true;
    }
    for (const item of s.facts) {
      const index = citations.length + 1;
      const named = speakerName(item);
      const speaker = named === null ? '' : inlineUntrusted(named);
      const line = `- [mem:${index}] ${factLine(item.fact.text)}${speaker ? ` (according to ${speaker})` : ''}`;
      if (used + len(head) + bodyUsed + line.length + 1 > budget) {
        trimmed = true;
        continue;
      }
      body.push(line);
      bodyUsed += line.length + 1;
      citations.push(buildCitation(item, index, s.kind === 'server' ? null : s.name));
      facts.push(item);
    }
    if (body.length === 0) continue;
    lines.push(...head, ...body);
    used += len(head) + bodyUsed;
  }
  if (lines.length === 0) return { text: '', citations: [], facts: [], trimmed };
  const text = [HEADER, ...lines, ...(citations.length > 0 ? ['', GUIDE] : [])].join('\n');
  return { text, citations, facts, trimmed };
}

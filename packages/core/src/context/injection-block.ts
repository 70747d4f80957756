import type { ScoredFact } from '../recall/recall-types.js';
import { inlineUntrusted } from '../text/untrusted.js';
import { BETWEEN_HEAD, type RenderedGroup } from './between-block.js';
import { buildCitation, MAX_FACT_CHARS, truncate } from './citations.js';
import type { Citation } from './prompt-context-types.js';

/** Characters per estimated token. */
export const CHARS_PER_TOKEN = 4;
export const MAX_DIGEST_CHARS = 480;

/** The people of the conversation together (relations, disagreements, shared interests). */
export interface BetweenSection {
  readonly kind: 'between';
  readonly groups: readonly RenderedGroup[];
}

export type BlockSection = PeopleSection | BetweenSection;

export interface PeopleSection {
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

function sectionHead(section: PeopleSection): string[] {
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
  /** Citation index of each fact cited so far: a fact shown twice keeps one tag. */
  const cited = new Map<string, number>();
  const tagged = (item: ScoredFact, line: string) => {
    const named = speakerName(item);
    const speaker = named === null ? '' : inlineUntrusted(named);
    return `${line}${speaker ? ` (according to ${speaker})` : ''}`;
  };
  const cite = (item: ScoredFact, index: number, subjectName: string | null) => {
    citations.push(buildCitation(item, index, subjectName));
    facts.push(item);
    cited.set(item.fact.id, index);
  };
  for (const s of sections) {
    if (s.kind === 'between') {
      // Whole groups or nothing: half of a disagreement would mislead.
      if (s.groups.length === 0) continue;
      if (used + len(BETWEEN_HEAD) > budget) {
        trimmed = true;
        continue;
      }
      const body: string[] = [];
      for (const g of s.groups) {
        const fresh: ScoredFact[] = [];
        const indexOf = (item: ScoredFact) => {
          const known = cited.get(item.fact.id);
          if (known !== undefined) return known;
          const pending = fresh.findIndex((f) => f.fact.id === item.fact.id);
          return citations.length + (pending >= 0 ? pending + 1 : fresh.push(item));
        };
        const groupLines = [
          g.heading,
          ...g.items.map(({ item, line }) => `- [mem:${indexOf(item)}] ${tagged(item, line)}`),
        ];
        if (used + len(BETWEEN_HEAD) + len(body) + len(groupLines) > budget) {
          trimmed = true;
          continue;
        }
        for (const item of fresh) cite(item, citations.length + 1, null);
        body.push(...groupLines);
      }
      if (body.length === 0) continue;
      lines.push(...BETWEEN_HEAD, ...body);
      used += len(BETWEEN_HEAD) + len(body);
      continue;
    }
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
      const line = `- [mem:${index}] ${tagged(item, factLine(item.fact.text))}`;
      if (used + len(head) + bodyUsed + line.length + 1 > budget) {
        trimmed = true;
        continue;
      }
      body.push(line);
      bodyUsed += line.length + 1;
      cite(item, index, s.kind === 'server' ? null : s.name);
    }
    if (body.length === 0) continue;
    lines.push(...head, ...body);
    used += len(head) + bodyUsed;
  }
  if (lines.length === 0) return { text: '', citations: [], facts: [], trimmed };
  const text = [HEADER, ...lines, ...(citations.length > 0 ? ['', GUIDE] : [])].join('\n');
  return { text, citations, facts, trimmed };
}

import type { ScoredFact } from '../recall/recall-types.js';
import { inlineUntrusted } from '../text/untrusted.js';
import type { BetweenGroup } from './between-people.js';
import { truncate } from './citations.js';

/** Longest entity name printed in the section (member labels are printed whole). */
const MAX_NAME_CHARS = 60;

/** The section's head: a title and how to use it. */
export const BETWEEN_HEAD = [
  '',
  'BETWEEN THE PEOPLE IN THIS CONVERSATION:',
  'How they relate and where they differ. Be tactful: steer around disagreements, never take sides or stir them up.',
];

/** A group as printed: a heading line, then one cited line per fact. */
export interface RenderedGroup {
  readonly heading: string;
  readonly items: readonly { readonly item: ScoredFact; readonly line: string }[];
}

/** A fact shown in the section (not ranked by recall: it is cited as evidence, score 0). */
export function evidenceItem(fact: ScoredFact['fact']): ScoredFact {
  return {
    fact,
    score: 0,
    components: { semantic: 0, lexical: 0, entity: 0, strength: 0, rrf: 0, temporal: 0, context: 0 },
    matchedChannels: [],
    hopPath: [],
    rerankScore: null,
  };
}

/**
 * Groups as lines of the memory block. Member labels and entity names are member-controlled:
 * printed through `inlineUntrusted` (one line, no tags, no invisible characters); entity names are
 * truncated.
 * `recalled` maps fact ids to the scored facts recall already returned, reused for citations.
 */
export function renderBetween(
  groups: readonly BetweenGroup[],
  label: (userId: string) => string,
  recalled: ReadonlyMap<string, ScoredFact>,
): RenderedGroup[] {
  const name = (s: string) => truncate(inlineUntrusted(s), MAX_NAME_CHARS) || 'something';
  // A member's label is printed whole, as in the other sections: its `(@username)` tells lookalikes apart.
  const member = (id: string) => inlineUntrusted(label(id)) || 'a member';
  return groups.map((g) => {
    const entity = name(g.entity ?? '');
    const heading =
      g.kind === 'relation'
        ? `${g.members.map(member).join(' and ')}:`
        : g.kind === 'opposite'
          ? `Opposite views on ${entity}:`
          : `Shared interest in ${entity}:`;
    return {
      heading,
      items: g.items.map((i) => ({
        item: recalled.get(i.fact.id) ?? evidenceItem(i.fact),
        line: i.text
          .map((p) => ('member' in p ? member(p.member) : 'entity' in p ? name(p.entity) : p.words))
          .join(' '),
      })),
    };
  });
}

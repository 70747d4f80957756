/**
 * Reads an extraction prompt the way a scripted model does in tests: the roster (`pX = "Name"`,
 * the batch author marked) and the numbered `[msg:N] "Name" (pX): "content"` lines, names and
 * contents being JSON string literals. It mirrors `renderExtractionPrompt`; a round-trip test
 * keeps the two in step.
 */
export interface PromptLine {
  readonly index: number;
  readonly name: string;
  readonly token: string;
  readonly content: string;
}

export interface ReadPrompt {
  readonly scope: 'member' | 'community';
  readonly lines: readonly PromptLine[];
  /** Display name → roster token. */
  readonly roster: ReadonlyMap<string, string>;
  /** Token of the batch author (member scope), else null. */
  readonly author: string | null;
}

/** One JSON string literal. */
const JSON_STRING = '"(?:[^"\\\\\\n]|\\\\.)*"';
const ROSTER_LINE = new RegExp(`^(p\\d+) = (${JSON_STRING})( \\(author of this batch\\))?$`, 'gm');
const MESSAGE_LINE = new RegExp(
  `^\\[msg:(\\d+)\\] (${JSON_STRING}) \\((p\\d+|unknown)\\)(?: replying to \\[msg:\\d+\\])?: (${JSON_STRING})$`,
  'gm',
);
const unquote = (literal: string): string => JSON.parse(literal) as string;

export function readExtractionPrompt(text: string): ReadPrompt {
  const roster = new Map<string, string>();
  let author: string | null = null;
  for (const m of text.matchAll(ROSTER_LINE)) {
    roster.set(unquote(m[2] as string), m[1] as string);
    if (m[3]) author = m[1] as string;
  }
  const lines: PromptLine[] = [];
  for (const m of text.matchAll(MESSAGE_LINE))
    lines.push({
      index: Number(m[1]),
      name: unquote(m[2] as string),
      token: m[3] as string,
      content: unquote(m[4] as string),
    });
  const scope = /Record only facts about the community as a whole/.test(text) ? 'community' : 'member';
  return { scope, lines, roster, author };
}

/**
 * Reads an extraction prompt the way a scripted model does in tests: the roster (`pX = Name`,
 * the batch author marked) and the numbered `[msg:N] Name (pX): content` lines. It mirrors
 * `renderExtractionPrompt`; a round-trip test keeps the two in step.
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

export function readExtractionPrompt(text: string): ReadPrompt {
  const roster = new Map<string, string>();
  let author: string | null = null;
  for (const m of text.matchAll(/^(p\d+) = (.+?)( \(author of this batch\))?$/gm)) {
    roster.set((m[2] as string).trim(), m[1] as string);
    if (m[3]) author = m[1] as string;
  }
  const lines: PromptLine[] = [];
  for (const m of text.matchAll(
    /^\[msg:(\d+)\] (.+?) \((p\d+|unknown)\)(?: replying to \[msg:\d+\])?: (.*)$/gm,
  ))
    lines.push({ index: Number(m[1]), name: m[2] as string, token: m[3] as string, content: m[4] as string });
  const scope = /Record only facts about the community as a whole/.test(text) ? 'community' : 'member';
  return { scope, lines, roster, author };
}

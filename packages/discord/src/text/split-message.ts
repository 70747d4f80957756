/** Discord's limit on message content. */
export const MESSAGE_LIMIT = 2000;

/**
 * Splits text into parts of at most `max` characters, preferring line breaks, then spaces, and
 * cutting a word only when it alone is longer than a part.
 */
export function splitMessage(text: string, max = MESSAGE_LIMIT): string[] {
  if (max < 1) throw new RangeError('max must be positive');
  const parts: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    let cut = window.lastIndexOf('\n');
    if (cut <= 0) cut = window.lastIndexOf(' ');
    if (cut <= 0) cut = max;
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).replace(/^[\n ]/, '');
  }
  if (rest.trim().length > 0 || parts.length === 0) parts.push(rest);
  return parts.filter((p, i) => p.length > 0 || i === 0);
}

/** Packs lines into pages of at most `max` characters (a longer line is split on its own). */
export function pageLines(lines: readonly string[], max = MESSAGE_LIMIT): string[] {
  const pages: string[] = [];
  let current = '';
  for (const line of lines.flatMap((l) => (l.length > max ? splitMessage(l, max) : [l]))) {
    if (current.length > 0 && current.length + 1 + line.length > max) {
      pages.push(current);
      current = line;
    } else current = current.length > 0 ? `${current}\n${line}` : line;
  }
  if (current.length > 0 || pages.length === 0) pages.push(current);
  return pages;
}

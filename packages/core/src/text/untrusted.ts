/**
 * Member-controlled strings (display names, message text, fact text, digests) on their way into
 * a prompt, a memory block or an alias index. Three operations, one concern each:
 * - `stripInvisible`: NFKC, then no control, zero-width, bidi or other format characters (an emoji
 *   joiner between two pictographs is kept, so "👩‍💻" stays one glyph);
 * - `normalizeName`: `stripInvisible` + one line, collapsed spaces (every name that is compared,
 *   stored as an alias or printed);
 * - `inlineUntrusted`: `stripInvisible` + one line + block syntax neutralised (`[mem:N]`,
 *   `[msg:N]`, `<tag>`), for every member-controlled string printed in the memory block;
 * - `quoteUntrusted`: a JSON string literal, for every member-controlled field of a prompt.
 */

/** Controls (Cc), format characters (Cf: zero-width, bidi, tags), the grapheme joiner, blank Hangul fillers, variation selectors. */
const INVISIBLE = /\p{Cc}|\p{Cf}|\u034F|[\u115F\u1160\u3164\uFFA0]|[\u180B-\u180D]|[\uFE00-\uFE0E]/gu;
const PICTOGRAPH_BEFORE = /\p{Extended_Pictographic}\uFE0F?$/u;
const PICTOGRAPH_AFTER = /^\p{Extended_Pictographic}/u;
const LINE_BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
const SPACES = /[\s\u3000]+/g;

/** NFKC, with every control, zero-width, bidi and format character removed. Newlines are kept. */
export function stripInvisible(text: string): string {
  return text
    .normalize('NFKC')
    .replace(LINE_BREAKS, (m) => (m.includes('\n') || m.includes('\r') ? '\n' : ' '))
    .replace(INVISIBLE, (c, offset: number, whole: string) => {
      if (c === '\n') return c;
      const joinsEmoji =
        c === '\u200D' &&
        PICTOGRAPH_BEFORE.test(whole.slice(Math.max(0, offset - 3), offset)) &&
        PICTOGRAPH_AFTER.test(whole.slice(offset + 1, offset + 3));
      return joinsEmoji ? c : '';
    });
}

/** One line, single spaces, no invisible characters: how a name is compared and shown. */
export function normalizeName(name: string): string {
  return stripInvisible(name).replace(SPACES, ' ').trim();
}

const MEM_TAG = /\[\s*(mem|msg)\s*:\s*([^\]]{0,12})\]/gi;
const TAG_LIKE = /<\s*(\/?)\s*([a-z!?|][^<>]{0,60})>/gi;

/**
 * A member-controlled string made safe for one line of the memory block: no invisible characters,
 * no line breaks, `[mem:9]` / `[msg:2]` rewritten as `(mem 9)` / `(msg 2)`, and tag-like `<…>`
 * (`</system>`, `<|im_start|>`) printed with single guillemets so no parser reads them as tags.
 */
export function inlineUntrusted(text: string): string {
  return normalizeName(text)
    .replace(MEM_TAG, (_m, kind: string, n: string) => `(${kind.toLowerCase()} ${n.trim()})`)
    .replace(TAG_LIKE, (_m, slash: string, body: string) => `‹${slash}${body}›`);
}

/**
 * A member-controlled string as one JSON string literal for a prompt line: quotes, backslashes and
 * line breaks escaped, invisible characters removed, so it can neither end its field nor start a
 * line of its own.
 */
export function quoteUntrusted(text: string): string {
  return JSON.stringify(stripInvisible(text));
}

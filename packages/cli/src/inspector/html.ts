/**
 * HTML built only through `html\`…\``: every interpolated value is escaped unless it is already
 * `SafeHtml` (the output of another `html` call or of a helper here). Member-controlled strings
 * (names, fact text, entity names, message text) are hostile: they are escaped for text and
 * attribute contexts alike, and bidirectional overrides and control characters are neutralised so
 * a name cannot flip the text around it.
 */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
  '=': '&#61;',
};

/** Bidi controls, zero-width and C0/C1 controls (except tab/newline) become U+FFFD or vanish. */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
const CONTROL = /\p{Cc}/gu;

/** Text made inert for display: no bidi overrides, no control characters (whitespace ones become a space). */
export function inert(text: string): string {
  return text
    .replace(BIDI, '\ufffd')
    .replace(CONTROL, (c) => (c === '\n' || c === '\t' || c === '\r' ? ' ' : '\ufffd'));
}

/** Escapes text for HTML text and quoted attribute values. */
export function escapeHtml(text: string): string {
  return inert(text).replace(/[&<>"'`=]/g, (c) => ENTITIES[c] as string);
}

type Part = SafeHtml | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof SafeHtml) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...values: readonly Part[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/**
 * An href for a stored URL, or null: only https links to discord.com (jump links) are linked;
 * anything else (`javascript:`, `data:`, other hosts) is shown as text by the caller.
 */
export function safeJumpLink(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && u.hostname === 'discord.com' && u.username === '' ? u.href : null;
  } catch {
    return null;
  }
}

/** A path segment of one of our own URLs (ids are data too). */
export const seg = (value: string) => encodeURIComponent(value);

/** `n` with `digits` decimals, for scores. */
export const num = (n: number, digits = 3) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

/** An ISO date-time shown as `YYYY-MM-DD HH:MM` (UTC). */
export const when = (d: Date | null) => (d ? `${d.toISOString().slice(0, 16).replace('T', ' ')}` : '–');

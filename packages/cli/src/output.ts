import stringWidth from 'string-width';

/** Terminal output helpers for the CLI (the only package allowed to write to the console). */
export interface Output {
  line(text?: string): void;
  error(text: string): void;
  json(value: unknown): void;
  table(rows: readonly Record<string, unknown>[], columns?: readonly string[]): void;
}

/**
 * Stored text as one inert terminal line: whitespace runs become one space; control characters
 * (escape sequences could repaint the terminal) and bidirectional overrides become U+FFFD.
 */
export function plain(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, '\ufffd');
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * At most `max` terminal columns: wide characters (CJK, most emoji) take two, combining marks and
 * joiners none. Longer text is cut between graphemes and ends with `…`.
 */
export function fitWidth(text: string, max: number): string {
  if (stringWidth(text) <= max) return text;
  let out = '';
  let width = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = stringWidth(segment);
    if (width + w > max - 1) break;
    out += segment;
    width += w;
  }
  return `${out}…`;
}

/** `text` followed by spaces up to `width` terminal columns. */
export function padWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - stringWidth(text)));
}

function cell(value: unknown, max = 60): string {
  if (value === null || value === undefined) return '';
  const text =
    value instanceof Date
      ? value.toISOString().slice(0, 19).replace('T', ' ')
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  return fitWidth(plain(text), max);
}

/**
 * Whether to colour a stream: never with `NO_COLOR` set (https://no-color.org), always with
 * `FORCE_COLOR` set to anything but 0, otherwise only on a terminal.
 */
export function colourEnabled(
  stream: NodeJS.WritableStream,
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '') return force !== '0';
  return (stream as { isTTY?: boolean }).isTTY === true;
}

const RED = '\u001b[31m';
const BOLD = '\u001b[1m';
const DIM = '\u001b[2m';
const RESET = '\u001b[0m';

/** Colours the leading `error…:` / `hint:` label of an error line. */
function paintError(text: string): string {
  const label = /^(error[^:]*:|hint:)/.exec(text)?.[1];
  if (!label) return text;
  return `${label.startsWith('hint') ? DIM : `${BOLD}${RED}`}${label}${RESET}${text.slice(label.length)}`;
}

export function createOutput(
  stdout: NodeJS.WritableStream = process.stdout,
  stderr: NodeJS.WritableStream = process.stderr,
): Output {
  const colourOut = colourEnabled(stdout);
  const colourErr = colourEnabled(stderr);
  return {
    line: (text = '') => {
      stdout.write(`${text}\n`);
    },
    error: (text) => {
      stderr.write(`${colourErr ? paintError(text) : text}\n`);
    },
    json: (value) => {
      stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    },
    table: (rows, columns) => {
      if (rows.length === 0) {
        stdout.write('(none)\n');
        return;
      }
      const cols = columns ?? Object.keys(rows[0] as object);
      const cells = rows.map((r) => cols.map((c) => cell(r[c])));
      const widths = cols.map((c, i) =>
        Math.max(stringWidth(c), ...cells.map((row) => stringWidth(row[i] as string))),
      );
      const fmt = (values: readonly string[]) =>
        values
          .map((v, i) => padWidth(v, widths[i] as number))
          .join('  ')
          .trimEnd();
      const header = fmt(cols);
      stdout.write(
        `${colourOut ? `${BOLD}${header}${RESET}` : header}\n${fmt(widths.map((w) => '─'.repeat(w)))}\n`,
      );
      for (const row of cells) stdout.write(`${fmt(row)}\n`);
    },
  };
}

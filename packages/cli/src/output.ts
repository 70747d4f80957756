/** Terminal output helpers for the CLI (the only package allowed to write to the console). */
export interface Output {
  line(text?: string): void;
  error(text: string): void;
  json(value: unknown): void;
  table(rows: readonly Record<string, unknown>[], columns?: readonly string[]): void;
}

function cell(value: unknown, max = 60): string {
  if (value === null || value === undefined) return '';
  const text =
    value instanceof Date
      ? value.toISOString().slice(0, 19).replace('T', ' ')
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function createOutput(
  stdout: NodeJS.WritableStream = process.stdout,
  stderr: NodeJS.WritableStream = process.stderr,
): Output {
  return {
    line: (text = '') => {
      stdout.write(`${text}\n`);
    },
    error: (text) => {
      stderr.write(`${text}\n`);
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
      const widths = cols.map((c, i) => Math.max(c.length, ...cells.map((row) => (row[i] as string).length)));
      const fmt = (values: readonly string[]) =>
        values
          .map((v, i) => v.padEnd(widths[i] as number))
          .join('  ')
          .trimEnd();
      stdout.write(`${fmt(cols)}\n${fmt(widths.map((w) => '─'.repeat(w)))}\n`);
      for (const row of cells) stdout.write(`${fmt(row)}\n`);
    },
  };
}

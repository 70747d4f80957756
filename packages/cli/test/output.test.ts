import { Writable } from 'node:stream';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { createOutput, fitWidth, padWidth } from '../src/output.js';

/** A non-terminal stream that keeps what is written to it. */
function sink() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

function table(rows: readonly Record<string, unknown>[], columns?: readonly string[]): string[] {
  const out = sink();
  createOutput(out.stream, sink().stream).table(rows, columns);
  return out.text().split('\n').slice(0, -1);
}

describe('CLI tables', () => {
  it('align columns by terminal width with CJK and emoji names', () => {
    const rows = [
      { name: 'Alice', note: 'keeps bees', since: '2021' },
      { name: '山田太郎', note: '茶道', since: '2019' },
      { name: '🐝 Bee', note: 'hive', since: '2024' },
      { name: '👩‍💻 dev', note: 'ｆｕｌｌ width', since: '2020' },
      { name: 'Zoë', note: 'café', since: '2022' },
    ];
    const lines = table(rows);
    expect(lines).toEqual([
      'name      note            since',
      '────────  ──────────────  ─────',
      'Alice     keeps bees      2021',
      '山田太郎  茶道            2019',
      '🐝 Bee    hive            2024',
      '👩‍💻 dev    ｆｕｌｌ width  2020',
      'Zoë       café            2022',
    ]);
    // in every row the second and third columns start at the same terminal column
    rows.forEach((row, i) => {
      const line = lines[i + 2] as string;
      expect(stringWidth(line.slice(0, line.indexOf(row.note)))).toBe(10);
      expect(stringWidth(line.slice(0, line.lastIndexOf(row.since)))).toBe(26);
    });
  });

  it('cuts long cells at 60 columns between graphemes', () => {
    const [, , row] = table([{ text: '東京'.repeat(40) }, { text: '👩‍👩‍👧'.repeat(40) }]);
    expect(row).toBe(`${'東京'.repeat(14)}東…`);
    expect(stringWidth(row ?? '')).toBe(59);
    const family = fitWidth('👩‍👩‍👧'.repeat(40), 60);
    expect(family).toBe(`${'👩‍👩‍👧'.repeat(29)}…`);
    expect(stringWidth(family)).toBe(59);
  });

  it('fitWidth and padWidth count columns, not code units', () => {
    expect(fitWidth('abc', 3)).toBe('abc');
    expect(fitWidth('abcd', 3)).toBe('ab…');
    expect(fitWidth('東京都', 4)).toBe('東…');
    expect(fitWidth('e\u0301te\u0301', 3)).toBe('e\u0301te\u0301');
    expect(padWidth('東京', 6)).toBe('東京  ');
    expect(padWidth('👍', 3)).toBe('👍 ');
  });
});

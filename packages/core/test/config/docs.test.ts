import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/index.js';

const ADAPTERS = new Set(['storage', 'llm', 'embeddings', 'prices']);

function keys(value: object, prefix = ''): string[] {
  return Object.entries(value).flatMap(([k, v]) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && !ADAPTERS.has(k)
      ? keys(v, `${prefix}${k}.`)
      : [`${prefix}${k}`],
  );
}

describe('docs/configuration.md', () => {
  it('documents every configuration key', () => {
    const doc = readFileSync(
      join(import.meta.dirname, '..', '..', '..', '..', 'docs', 'configuration.md'),
      'utf8',
    );
    const missing = keys(parseConfig({})).filter((k) => !doc.includes(`\`${k}\``));
    expect(missing).toEqual([]);
  });
});

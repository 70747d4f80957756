import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { target } from '../src/harness/suite.js';
import { barChart, lineChart } from '../src/harness/svg.js';
import { writeSuiteResult } from '../src/harness/write.js';
import { measuredOn, updateReadme } from '../src/readme-section.js';
import { loadResults, renderResultsReadme, SUITE_ORDER } from '../src/results-readme.js';
import { SUITE_NAMES } from '../src/run-suite.js';
import { benchResultJsonSchema, validateBenchResult } from '../src/schema/bench-result.js';
import { observeSuite } from '../src/suites/observe.js';

const RESULTS = join(import.meta.dirname, '..', 'results');
const tmp = mkdtempSync(join(tmpdir(), 'permafrost-bench-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('bench result files', () => {
  const files = existsSync(RESULTS)
    ? readdirSync(RESULTS).filter(
        (f) => f.endsWith('.json') && !['schema.json', 'storage.json', 'locomo.json'].includes(f),
      )
    : [];

  it('every committed suite result matches the schema', () => {
    for (const f of files) {
      const doc = validateBenchResult(JSON.parse(readFileSync(join(RESULTS, f), 'utf8')));
      expect(doc.suite).toBe(f.replace(/\.json$/, ''));
      for (const t of doc.targets) if (t.value === null) expect(t.met).toBeNull();
      for (const c of doc.charts) expect(existsSync(join(RESULTS, c.file))).toBe(true);
    }
  });

  it('the READMEs cover every suite that pnpm bench runs', () => {
    expect([...SUITE_ORDER].sort()).toEqual([...SUITE_NAMES].sort());
    for (const f of files) expect(SUITE_ORDER).toContain(f.replace(/\.json$/, ''));
  });

  it('the results README lists every target of every suite', () => {
    const results = loadResults(RESULTS);
    const md = renderResultsReadme(results);
    for (const r of results) for (const t of r.targets) expect(md).toContain(t.description);
  });
});

describe('schema', () => {
  it('rejects a document without targets and exports a JSON Schema', () => {
    expect(() => validateBenchResult({ schemaVersion: 1, suite: 'x' })).toThrow(/targets/);
    expect(JSON.stringify(benchResultJsonSchema())).toContain('"targets"');
  });

  it('target() decides met from the comparator and leaves unmeasured targets open', () => {
    expect(target('a', 'a', '<=', 5, 'ms', 4.2).met).toBe(true);
    expect(target('a', 'a', '>=', 10_000, 'msg/s', 9_999).met).toBe(false);
    expect(target('a', 'a', '<', 1, 'ms', null).met).toBeNull();
  });
});

describe('charts', () => {
  it('are standalone SVG documents', () => {
    const line = lineChart({
      title: 'x < y',
      xLabel: 'facts',
      yLabel: 'ms',
      logX: true,
      series: [
        {
          name: 'p95',
          points: [
            [1000, 1],
            [10_000, 3],
            [100_000, 9],
          ],
        },
      ],
      refLines: [{ y: 5, label: 'target' }],
    });
    expect(line.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(line).toContain('x &lt; y');
    const bars = barChart({
      title: 't',
      yLabel: '%',
      categories: ['a', 'b'],
      series: [{ name: 's', values: [1, 2] }],
    });
    expect(bars.match(/<rect /g)?.length).toBeGreaterThanOrEqual(3);
  });
});

describe('observe suite (quick) end to end', () => {
  it('produces a valid result document', async () => {
    const out = await observeSuite({ quick: true, args: new Map(), workDir: tmp });
    const doc = writeSuiteResult(join(tmp, 'out'), 'observe', out, {
      quick: true,
      loadBefore: [0, 0, 0],
      startedAt: new Date(),
      seconds: 1,
    });
    expect(doc.targets.map((t) => t.id)).toEqual([
      'observe-throughput',
      'observe-p99',
      'observe-many-throughput',
    ]);
    expect(doc.samples['observeMs']?.count).toBeGreaterThan(0);
    expect(existsSync(join(tmp, 'out', 'observe.svg'))).toBe(true);
    validateBenchResult(JSON.parse(readFileSync(join(tmp, 'out', 'observe.json'), 'utf8')));
  }, 120_000);
});

describe('README performance block', () => {
  it('is inserted before ## Packages once, then replaced in place', () => {
    const readme = join(tmp, 'README.md');
    writeFileSync(readme, '# P\n\nintro\n\n## Packages\n\n- core\n');
    const empty = join(tmp, 'no-results');
    expect(updateReadme(readme, empty)).toBe(true);
    const first = readFileSync(readme, 'utf8');
    expect(first.indexOf('## Performance')).toBeLessThan(first.indexOf('## Packages'));
    expect(first).toContain('<!-- bench:start -->');
    expect(updateReadme(readme, empty)).toBe(false);
    expect(readFileSync(readme, 'utf8').match(/bench:start/g)?.length).toBe(1);
  });

  it('names the machine and commit of each suite when suites were measured apart', () => {
    const [committed] = loadResults(RESULTS);
    expect(committed).toBeDefined();
    const at = (suite: string, cpuModel: string, gitSha: string) => ({
      ...(committed as NonNullable<typeof committed>),
      suite,
      gitSha,
      machine: { ...(committed as NonNullable<typeof committed>).machine, cpuModel },
    });
    const together = measuredOn([
      at('observe', 'Chip A', 'abcdef123456'),
      at('recall', 'Chip A', 'abcdef123456'),
    ]);
    expect(together).toMatch(
      /^Measured by `pnpm bench` on Chip A ×\d, node v\S+, git abcdef1, \d{4}-\d\d-\d\d;/,
    );
    const apart = measuredOn([
      at('observe', 'Chip A', 'abcdef123456'),
      at('recall', 'Chip B', '9876543210ab+dirty'),
    ]);
    expect(apart).toContain('on Chip A ×');
    expect(apart).toContain(': observe (git abcdef1, ');
    expect(apart).toContain(': recall (git 9876543+dirty, ');
    expect(apart).toContain('Timings from different machines do not compare');
    expect(measuredOn([])).toContain('No benchmark results yet');
  });
});

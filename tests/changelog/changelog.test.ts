import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assemble, prepend, readFragments, readPackages } from '../../scripts/changelog.mjs';
import { REPO_ROOT } from '../../scripts/tools.mjs';

const packages = {
  core: { name: '@permafrost/core', version: '0.2.0' },
  'store-sqlite': { name: '@permafrost/store-sqlite', version: '0.1.3' },
};
const dir = mkdtempSync(join(tmpdir(), 'permafrost-changelog-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fragments(files: Record<string, string>): string {
  const d = mkdtempSync(join(dir, 'case-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(d, name), text);
  writeFileSync(join(d, 'README.md'), '# not a fragment\n');
  return d;
}

describe('changelog.d fragments', () => {
  it('every fragment in the repository is well named, typed and belongs to a package or area', () => {
    const { fragments: found, problems } = readFragments(join(REPO_ROOT, 'changelog.d'), readPackages());
    expect(problems).toEqual([]);
    expect(found.length).toBeGreaterThan(0);
  });

  it('assembles one section per package at its version, types in the fixed order, repository last', () => {
    const d = fragments({
      'core.b.fixed.md': 'Core fix.\n',
      'core.a.added.md': 'Core feature\nover two lines.\n',
      'store-sqlite.x.security.md': 'Store hardening.\n',
      'bench.y.added.md': 'A bench suite.\n',
    });
    const { fragments: found, problems } = readFragments(d, packages);
    expect(problems).toEqual([]);
    expect(assemble(found, packages, '2026-12-01')).toBe(
      [
        '## @permafrost/core 0.2.0 (2026-12-01)',
        '',
        '### Added',
        '',
        '- Core feature over two lines.',
        '',
        '### Fixed',
        '',
        '- Core fix.',
        '',
        '## @permafrost/store-sqlite 0.1.3 (2026-12-01)',
        '',
        '### Security',
        '',
        '- Store hardening.',
        '',
        '## Repository (2026-12-01)',
        '',
        '### Added',
        '',
        '- A bench suite.',
      ].join('\n'),
    );
  });

  it('reports bad names, unknown types and areas, empty fragments and headings', () => {
    const d = fragments({
      'Core.Bad.added.md': 'x',
      'core.a.improved.md': 'x',
      'store-redis.a.added.md': 'x',
      'core.empty.fixed.md': '  \n',
      'core.heading.fixed.md': '# Title\ntext',
    });
    const { problems } = readFragments(d, packages);
    expect(problems).toHaveLength(5);
    expect(problems.join('\n')).toMatch(/Core\.Bad\.added\.md: not/);
    expect(problems.join('\n')).toMatch(/type "improved"/);
    expect(problems.join('\n')).toMatch(/"store-redis" is neither/);
    expect(problems.join('\n')).toMatch(/core\.empty\.fixed\.md: empty/);
    expect(problems.join('\n')).toMatch(/core\.heading\.fixed\.md: headings/);
  });

  it('prepends new notes above earlier releases under one header', () => {
    const first = prepend('', '## @permafrost/core 0.1.0 (2026-11-01)\n\n### Added\n\n- One.');
    const second = prepend(first, '## @permafrost/core 0.2.0 (2026-12-01)\n\n### Fixed\n\n- Two.');
    expect(second.match(/^# Changelog/gm)).toHaveLength(1);
    expect(second.indexOf('0.2.0')).toBeLessThan(second.indexOf('0.1.0'));
    expect(second).toContain('- One.');
  });
});

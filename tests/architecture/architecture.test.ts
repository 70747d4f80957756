import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script without type declarations
import { checkArchitecture, importsOf } from '../../scripts/architecture.mjs';

interface Violation {
  readonly file: string;
  readonly specifier: string;
  readonly rule: string;
}
const check = checkArchitecture as (root: string) => Violation[];
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const scratch = mkdtempSync(join(tmpdir(), 'pf-architecture-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A miniature repository with the given files under packages/. */
function plant(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, 'packages', path)), { recursive: true });
    writeFileSync(join(dir, 'packages', path), text);
  }
  return dir;
}

describe('architecture rules (scripts/architecture.mjs)', () => {
  it('the repository has no forbidden import', () => {
    expect(check(root)).toEqual([]);
  });

  it('fails on a pipeline that imports an adapter', () => {
    const dir = plant('pipeline-imports-adapter', {
      'core/src/adapters/heuristic/aspects.ts': 'export const x = 1;\n',
      'core/src/ingest/reconcile.ts':
        "import { x } from '../adapters/heuristic/aspects.js';\nexport const y = x;\n",
    });
    expect(check(dir)).toEqual([
      {
        file: 'packages/core/src/ingest/reconcile.ts',
        specifier: '../adapters/heuristic/aspects.js',
        rule: 'ingest may not import adapters/heuristic',
      },
    ]);
  });

  it('fails on the kernel importing a pipeline, a type-only import included', () => {
    const dir = plant('kernel-imports-pipeline', {
      'core/src/recall/recall-types.ts': 'export interface R { a: number }\n',
      'core/src/ports/fact-store.ts':
        "import type { R } from '../recall/recall-types.js';\nexport type S = R;\n",
    });
    expect(check(dir).map((v) => v.rule)).toEqual(['ports may not import recall']);
  });

  it('fails on a driver in core, a sibling package reached by path, and an unknown folder', () => {
    const dir = plant('drivers', {
      'core/src/ingest/db.ts': "import Database from 'better-sqlite3';\nexport const d = Database;\n",
      'core/src/misc/thing.ts': "import { d } from '../ingest/db.js';\nexport const t = d;\n",
      'store-mongo/src/a.ts': "import { x } from '../../core/src/ingest/db.js';\nexport const a = x;\n",
      'discord/src/b.ts': "import { y } from '@permafrost/core/src/index.js';\nexport const b = y;\n",
    });
    expect(check(dir).map((v) => v.rule)).toEqual(
      expect.arrayContaining([
        'core may not depend on better-sqlite3',
        'folder misc is not a layer of scripts/architecture.mjs',
        'imports outside its package (use the package name)',
        "imports another package's sources",
      ]),
    );
  });

  it('reads every import form and ignores commented-out imports', () => {
    const text = [
      "import a from 'a';",
      "import type { B } from 'b';",
      "export { c } from 'c';",
      "export * from 'd';",
      "const e = await import('e');",
      "import 'f';",
      "// import g from 'g';",
      "/* import h from 'h'; */",
      'import {',
      '  i,',
      "} from 'i';",
    ].join('\n');
    expect((importsOf as (t: string) => string[])(text)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'i']);
  });
});

// Lists the names a TypeScript entry file exports, following `export … from` re-exports (explicit
// lists and `export *`). Used by tests/exports to hold each entry point to the names docs/api.md
// documents. Plain text parsing: enough for this repository's style (no default exports, no
// `export =`, re-exports written as `export { a, type B as C } from './x.js'`).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** `{ name, type }` for every export of `file` (type: true when only a type is exported). */
export function exportsOf(file, seen = new Set()) {
  if (seen.has(file)) return [];
  seen.add(file);
  const code = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');
  const out = [];
  for (const m of code.matchAll(/export\s+(type\s+)?\*\s+from\s+'([^']+)'/g)) {
    const target = resolve(dirname(file), m[2].replace(/\.js$/, '.ts'));
    for (const e of exportsOf(target, seen)) out.push(m[1] ? { ...e, type: true } : e);
  }
  for (const m of code.matchAll(/export\s+(type\s+)?\{([^}]*)\}(\s*from\s*'[^']+')?/g)) {
    for (const part of m[2]
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const name = part
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop();
      out.push({ name, type: Boolean(m[1]) || part.startsWith('type ') });
    }
  }
  for (const m of code.matchAll(
    /export\s+(?:declare\s+)?(?:abstract\s+)?(const|function|class|interface|type|enum|let)\s+([A-Za-z_$][\w$]*)/g,
  ))
    out.push({ name: m[2], type: m[1] === 'interface' || m[1] === 'type' });
  return out;
}

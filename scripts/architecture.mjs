#!/usr/bin/env node
// The architecture's import rules, checked. `node scripts/architecture.mjs` prints every forbidden
// import and exits 1 when there is one; tests/architecture runs the same check (and shows it failing
// on a planted bad import). docs/architecture.md explains the layers; this file is their definition.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const KERNEL = [
  'errors',
  'validation',
  'model',
  'math',
  'text',
  'extraction',
  'ports',
  'config',
  'observability',
];
const PIPELINES = [
  'access',
  'identity',
  'graph',
  'ingest',
  'lifecycle',
  'recall',
  'context',
  'conversation',
  'governance',
];
const ADAPTERS = [
  'adapters/shared',
  'adapters/system',
  'adapters/in-memory',
  'adapters/embedding',
  'adapters/heuristic',
  'adapters/llm',
];

/**
 * Folders of packages/core/src (the longest matching prefix wins) and the folders each may import.
 * A folder may always import its own files.
 */
export const CORE_LAYERS = {
  errors: [],
  validation: ['errors', 'model'],
  model: ['errors', 'validation'],
  math: [],
  text: ['errors', 'model'],
  extraction: ['errors', 'validation', 'model', 'text', 'ports'],
  ports: ['errors', 'model'],
  config: ['errors', 'validation', 'model', 'text'],
  observability: ['errors', 'model', 'ports', 'config'],
  ...Object.fromEntries(PIPELINES.map((p) => [p, [...KERNEL, ...PIPELINES]])),
  'adapters/shared': ['errors', 'model', 'ports'],
  ...Object.fromEntries(ADAPTERS.slice(1).map((a) => [a, [...KERNEL, 'adapters/shared']])),
  api: [...KERNEL, ...PIPELINES],
  composition: [...KERNEL, ...PIPELINES, ...ADAPTERS, 'api'],
  facade: [...KERNEL, ...PIPELINES, ...ADAPTERS, 'api', 'composition'],
  testing: [...KERNEL, ...ADAPTERS],
  // The package's entry points choose what is public; they may name anything.
  '.': ['*'],
};

/** Bare specifiers no file of a package may import (drivers stay in their adapter package). */
export const FORBIDDEN_PACKAGES = {
  core: [
    'mongodb',
    'better-sqlite3',
    'sqlite-vec',
    'discord.js',
    '@permafrost/store-sqlite',
    '@permafrost/store-mongo',
  ],
  'store-sqlite': ['mongodb', 'discord.js', '@permafrost/store-mongo'],
  'store-mongo': ['better-sqlite3', 'sqlite-vec', 'discord.js', '@permafrost/store-sqlite'],
  'store-conformance': ['mongodb', 'better-sqlite3', 'discord.js'],
  'embeddings-local': ['mongodb', 'better-sqlite3', 'discord.js'],
  discord: ['mongodb', 'better-sqlite3', 'sqlite-vec'],
  // The MCP server reads through the public Memory API only; the CLI chooses the store.
  mcp: [
    'mongodb',
    'better-sqlite3',
    'sqlite-vec',
    'discord.js',
    '@permafrost/store-sqlite',
    '@permafrost/store-mongo',
  ],
};

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every module specifier a source file imports or re-exports (comments stripped first). */
export function importsOf(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const out = [];
  for (const m of code.matchAll(IMPORT)) out.push(m[1] ?? m[2]);
  return out;
}

function layerOf(relPath) {
  const parts = relPath.split(sep);
  if (parts.length === 1) return '.';
  const two = parts.slice(0, 2).join('/');
  if (parts.length > 2 && two in CORE_LAYERS) return two;
  return parts[0] in CORE_LAYERS ? parts[0] : null;
}

function walk(dir, out = []) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.ts$/.test(entry) && !entry.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/**
 * Checks packages/*\/src under `root`. Returns violations as
 * `{ file, specifier, rule }` (file relative to root).
 */
export function checkArchitecture(root) {
  const violations = [];
  const packagesDir = join(root, 'packages');
  for (const pkg of readdirSync(packagesDir)) {
    const src = join(packagesDir, pkg, 'src');
    let files;
    try {
      files = walk(src);
    } catch {
      continue;
    }
    for (const file of files) {
      const rel = relative(src, file);
      const shown = relative(root, file);
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        if (spec.startsWith('.')) {
          const target = resolve(dirname(file), spec);
          if (!target.startsWith(src + sep)) {
            violations.push({
              file: shown,
              specifier: spec,
              rule: 'imports outside its package (use the package name)',
            });
            continue;
          }
          if (pkg !== 'core') continue;
          const from = layerOf(rel);
          const to = layerOf(relative(src, target));
          if (from === null) {
            violations.push({
              file: shown,
              specifier: spec,
              rule: `folder ${rel.split(sep)[0]} is not a layer of scripts/architecture.mjs`,
            });
            continue;
          }
          if (from === to || to === null) continue;
          const allowed = CORE_LAYERS[from];
          if (!allowed.includes('*') && !allowed.includes(to))
            violations.push({ file: shown, specifier: spec, rule: `${from} may not import ${to}` });
          continue;
        }
        if (/^@permafrost\/[^/]+\/src(\/|$)/.test(spec))
          violations.push({ file: shown, specifier: spec, rule: "imports another package's sources" });
        const bare = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
        if ((FORBIDDEN_PACKAGES[pkg] ?? []).includes(bare))
          violations.push({ file: shown, specifier: spec, rule: `${pkg} may not depend on ${bare}` });
      }
    }
  }
  return violations;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const violations = checkArchitecture(root);
  for (const v of violations) process.stdout.write(`${v.file}: '${v.specifier}' — ${v.rule}\n`);
  process.stdout.write(`architecture: ${violations.length} forbidden import(s)\n`);
  process.exit(violations.length === 0 ? 0 : 1);
}

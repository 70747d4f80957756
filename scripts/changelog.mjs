#!/usr/bin/env node
// The release-notes tool: assembles changelog.d/ fragments by package and version.
//
//   node scripts/changelog.mjs            print the notes the pending fragments make (changes nothing)
//   node scripts/changelog.mjs --check    validate fragment names and contents; exit 1 on a problem
//   node scripts/changelog.mjs --release  prepend the notes to CHANGELOG.md (one section per package,
//                                         at the version in its package.json) and delete the fragments
//
// A fragment is changelog.d/<area>.<slug>.<type>.md: <area> is a package folder under packages/
// (core, store-sqlite, …; released as @permafrost/<area>) or a repository area without a package
// (bench, tests, …; listed under "Repository"), <type> one of TYPES.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './tools.mjs';

export const TYPES = ['security', 'removed', 'deprecated', 'added', 'changed', 'fixed'];
const TITLES = {
  security: 'Security',
  removed: 'Removed',
  deprecated: 'Deprecated',
  added: 'Added',
  changed: 'Changed',
  fixed: 'Fixed',
};
const AREAS_WITHOUT_PACKAGE = ['bench', 'tests', 'examples', 'docs', 'scripts', 'ci'];

/** Packages by folder name: `{ core: { name: '@permafrost/core', version: '0.1.0' }, … }`. */
export function readPackages(root = REPO_ROOT) {
  const out = {};
  for (const dir of readdirSync(join(root, 'packages'))) {
    try {
      const m = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8'));
      if (!m.private) out[dir] = { name: m.name, version: m.version };
    } catch {
      // not a package folder
    }
  }
  return out;
}

/** Parses and validates the fragments in `dir`: `{ fragments, problems }`. */
export function readFragments(dir, packages) {
  const fragments = [];
  const problems = [];
  for (const file of readdirSync(dir).sort()) {
    if (file === 'README.md' || file.startsWith('.')) continue;
    const match = /^([a-z0-9-]+)\.([a-z0-9][a-z0-9.-]*)\.([a-z]+)\.md$/.exec(file);
    if (!match) {
      problems.push(`${file}: not <area>.<slug>.<type>.md (lower-case, kebab-case)`);
      continue;
    }
    const [, area, slug, type] = match;
    if (!TYPES.includes(type)) problems.push(`${file}: type "${type}" is not one of ${TYPES.join(', ')}`);
    if (!packages[area] && !AREAS_WITHOUT_PACKAGE.includes(area))
      problems.push(
        `${file}: "${area}" is neither a package folder (${Object.keys(packages).join(', ')}) nor a repository area (${AREAS_WITHOUT_PACKAGE.join(', ')})`,
      );
    const text = readFileSync(join(dir, file), 'utf8').trim();
    if (text.length === 0) problems.push(`${file}: empty`);
    if (/^#/m.test(text)) problems.push(`${file}: headings belong to the assembled notes, not to a fragment`);
    fragments.push({ file, area, slug, type, text });
  }
  return { fragments, problems };
}

function bullet(text) {
  return `- ${text.replace(/\n+/g, ' ').trim()}`;
}

/** The release notes: one section per package (at its version), then "Repository". */
export function assemble(fragments, packages, date) {
  const sections = [];
  const areas = [...new Set(fragments.map((f) => f.area))];
  const packaged = areas.filter((a) => packages[a]).sort();
  const other = areas.filter((a) => !packages[a]).sort();
  const body = (list) =>
    TYPES.filter((t) => list.some((f) => f.type === t))
      .map(
        (t) =>
          `### ${TITLES[t]}\n\n${list
            .filter((f) => f.type === t)
            .map((f) => bullet(f.text))
            .join('\n')}`,
      )
      .join('\n\n');
  for (const area of packaged) {
    const { name, version } = packages[area];
    sections.push(`## ${name} ${version} (${date})\n\n${body(fragments.filter((f) => f.area === area))}`);
  }
  if (other.length > 0)
    sections.push(`## Repository (${date})\n\n${body(fragments.filter((f) => !packages[f.area]))}`);
  return sections.join('\n\n');
}

const HEADER =
  '# Changelog\n\nRelease notes per package, newest first. Assembled from `changelog.d/` by `node scripts/changelog.mjs --release`.\n';

/** Prepends `notes` to the CHANGELOG.md text (creating its header when new). */
export function prepend(existing, notes) {
  const rest = existing.startsWith(HEADER) ? existing.slice(HEADER.length).trimStart() : existing.trim();
  return `${HEADER}\n${notes}\n${rest ? `\n${rest}\n` : ''}`;
}

function main(argv) {
  const dir = join(REPO_ROOT, 'changelog.d');
  const packages = readPackages();
  const { fragments, problems } = readFragments(dir, packages);
  if (problems.length > 0) {
    for (const p of problems) console.error(`changelog: ${p}`);
    return 1;
  }
  if (argv.includes('--check')) {
    console.log(`changelog: ${fragments.length} fragments ok`);
    return 0;
  }
  if (fragments.length === 0) {
    console.log('changelog: no pending fragments');
    return 0;
  }
  const notes = assemble(fragments, packages, new Date().toISOString().slice(0, 10));
  if (!argv.includes('--release')) {
    console.log(notes);
    return 0;
  }
  const file = join(REPO_ROOT, 'CHANGELOG.md');
  let existing = '';
  try {
    existing = readFileSync(file, 'utf8');
  } catch {
    // first release
  }
  writeFileSync(file, prepend(existing, notes));
  for (const f of fragments) rmSync(join(dir, f.file));
  console.log(`changelog: ${fragments.length} fragments → CHANGELOG.md (commit it with the version bumps)`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exit(main(process.argv.slice(2)));

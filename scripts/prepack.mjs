#!/usr/bin/env node
// `prepack` of every publishable package (run by `pnpm pack` / `pnpm publish` in the package
// folder): builds the package and its references with the repository's TypeScript, so a tarball
// never ships without dist/, and copies the repository's LICENSE into the package (git ignores the
// copy), so every tarball carries it.
import { copyFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildProjects, REPO_ROOT } from './tools.mjs';

const pkgDir = process.cwd();
if (!existsSync(join(pkgDir, 'tsconfig.json'))) {
  console.error(`[prepack] no tsconfig.json in ${pkgDir}`);
  process.exit(1);
}
buildProjects([relative(REPO_ROOT, pkgDir) || '.'], { stdio: 'inherit' });
if (!existsSync(join(pkgDir, 'dist', 'index.js'))) {
  console.error(`[prepack] the build wrote no dist/index.js in ${pkgDir}`);
  process.exit(1);
}
copyFileSync(join(REPO_ROOT, 'LICENSE'), join(pkgDir, 'LICENSE'));

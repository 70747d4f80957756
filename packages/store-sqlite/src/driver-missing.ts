/**
 * better-sqlite3 loads its native driver (`better_sqlite3.node`) when the first database opens.
 * When the package's install script never ran (npm 11 and pnpm 10+ block dependency scripts until
 * approved) the file is missing; say so, with the fix, instead of a bare "cannot open".
 */
export function missingDriverHint(error: unknown): string | null {
  const e = error as { code?: unknown; message?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message : '';
  const missing = /Could not locate the bindings file/.test(message);
  const broken = e?.code === 'ERR_DLOPEN_FAILED' || /NODE_MODULE_VERSION/.test(message);
  if (!missing && !broken) return null;
  const what = missing
    ? "better-sqlite3's native driver is not built (its install script did not run)"
    : "better-sqlite3's native driver does not load in this Node (built for another version)";
  return (
    `${what}: allow its build and rebuild it — npm 11+: \`npm pkg set allowScripts.better-sqlite3=true --json\`; ` +
    'pnpm: `pnpm approve-builds` or `allowBuilds: { better-sqlite3: true }` in pnpm-workspace.yaml; ' +
    'then `npm rebuild better-sqlite3` / `pnpm rebuild better-sqlite3`'
  );
}

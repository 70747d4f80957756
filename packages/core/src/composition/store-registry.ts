import { ErrorCode, MemoryError } from '../errors/index.js';
import type { StoreFactory } from '../ports/memory-store.js';

/**
 * Store packages register a factory per URL scheme when imported. The registry lives on
 * globalThis under a Symbol.for key so two copies of core (dual installs) share it.
 */
const REGISTRY = Symbol.for('permafrost.store-factories');
type Registry = Map<string, StoreFactory>;

function registry(): Registry {
  const g = globalThis as { [REGISTRY]?: Registry };
  g[REGISTRY] ??= new Map();
  return g[REGISTRY];
}

export function registerStoreFactory(scheme: string, factory: StoreFactory): void {
  registry().set(scheme, factory);
}

export function getStoreFactory(scheme: string): StoreFactory | undefined {
  return registry().get(scheme);
}

/** Package that provides each built-in scheme, imported on demand when installed. */
const PACKAGES: Readonly<Record<string, string>> = {
  sqlite: '@permafrost/store-sqlite',
  mongodb: '@permafrost/store-mongo',
};

/**
 * Finds the factory for a scheme: registered already, or registered by importing its package
 * (resolved from core's location, then from the application's working directory).
 */
export async function resolveStoreFactory(scheme: string): Promise<StoreFactory> {
  const known = getStoreFactory(scheme);
  if (known) return known;
  const pkg = PACKAGES[scheme];
  if (pkg) {
    await importBackend(pkg, `"${scheme}" storage URLs`);
    const loaded = getStoreFactory(scheme);
    if (loaded) return loaded;
  }
  throw new MemoryError(
    ErrorCode.BACKEND_NOT_INSTALLED,
    `no store is installed for "${scheme}" storage URLs${pkg ? `: ${installHint(pkg)}` : ''}`,
  );
}

function installHint(pkg: string): string {
  return `install it with "npm install ${pkg}" (or "pnpm add ${pkg}") in your application`;
}

function missingPackage(error: unknown, pkg: string): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = e?.code;
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof e?.message === 'string' &&
    e.message.includes(`'${pkg}'`)
  );
}

/**
 * Imports an optional backend package (a store, the local embedder) for `purpose`. Not installed →
 * `BACKEND_NOT_INSTALLED` naming the package and the install command; installed but failing to
 * load (a missing dependency of its own, a broken build) → `BACKEND_NOT_INSTALLED` with the
 * loader's message (module paths, never user content) and the error as `cause`.
 */
export async function importBackend(pkg: string, purpose: string): Promise<unknown> {
  try {
    return await importOptional(pkg);
  } catch (cause) {
    if (missingPackage(cause, pkg))
      throw new MemoryError(
        ErrorCode.BACKEND_NOT_INSTALLED,
        `${purpose} need the ${pkg} package, which is not installed: ${installHint(pkg)}`,
        { cause },
      );
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new MemoryError(
      ErrorCode.BACKEND_NOT_INSTALLED,
      `${pkg} (needed for ${purpose}) is installed but failed to load: ${reason}`,
      { cause },
    );
  }
}

/** Imports a package that core does not depend on; resolves it from core, then from the app. */
export async function importOptional(pkg: string): Promise<unknown> {
  try {
    return await import(pkg);
  } catch (first) {
    try {
      const { createRequire } = await import('node:module');
      const { pathToFileURL } = await import('node:url');
      const resolved = createRequire(`${process.cwd()}/`).resolve(pkg);
      return await import(pathToFileURL(resolved).href);
    } catch {
      throw first;
    }
  }
}

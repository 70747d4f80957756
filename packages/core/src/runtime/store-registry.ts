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
    await importOptional(pkg);
    const loaded = getStoreFactory(scheme);
    if (loaded) return loaded;
  }
  throw new MemoryError(
    ErrorCode.BACKEND_NOT_INSTALLED,
    `no store is installed for "${scheme}" URLs${pkg ? ` (install ${pkg})` : ''}`,
  );
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

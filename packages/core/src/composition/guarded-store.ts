import { ErrorCode, MemoryError } from '../errors/index.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryStore } from '../ports/memory-store.js';

/** The role ports of a store (name and capabilities are plain values; the rest are methods). */
type RoleKey = {
  [K in keyof MemoryStore]-?: K extends 'name' | 'capabilities'
    ? never
    : MemoryStore[K] extends ((...args: never[]) => unknown) | undefined
      ? never
      : K;
}[keyof MemoryStore];

const ROLES = [
  'facts',
  'aliases',
  'graph',
  'consent',
  'digests',
  'cursors',
  'meta',
  'budgets',
  'erasures',
  'admin',
  'queue',
  'vectors',
  'conversation',
  'claims',
  'modes',
  'reactions',
] as const satisfies readonly RoleKey[];
// Every role of MemoryStore is wrapped: a role added to the port but not here fails to compile.
const everyRole: Exclude<RoleKey, (typeof ROLES)[number]> extends never ? true : never = true;
void everyRole;

function methodNames(obj: object): string[] {
  const names = new Set<string>();
  let proto: object | null = obj;
  while (proto && proto !== Object.prototype) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== 'constructor' && typeof (obj as Record<string, unknown>)[name] === 'function')
        names.add(name);
    }
    proto = Object.getPrototypeOf(proto);
  }
  return [...names];
}

export interface GuardedStore extends MemoryStore {
  readonly inner: MemoryStore;
  readonly isClosed: () => boolean;
}

/**
 * Wraps a store so lifecycle invariants live in one place: setup runs once (and again after a
 * failure), use after close fails with CLOSED, close runs once, and anything a driver throws
 * that is not a MemoryError becomes STORE_UNAVAILABLE with the original as `cause`.
 */
export function guardStore(store: MemoryStore, logger?: Logger): GuardedStore {
  let setup: Promise<void> | null = null;
  let closed = false;
  let closing: Promise<void> | null = null;

  const normalize = (error: unknown, role: string, method: string): MemoryError => {
    if (MemoryError.is(error)) return error;
    logger?.({ level: 'error', event: 'store.error', data: { store: store.name, role, method }, error });
    return new MemoryError(
      ErrorCode.STORE_UNAVAILABLE,
      `the ${store.name} store failed in ${role}.${method}`,
      { cause: error },
    );
  };

  const guard = <T extends object>(role: string, port: T): T => {
    const out: Record<string, unknown> = {};
    for (const name of methodNames(port)) {
      const fn = (port as Record<string, (...a: unknown[]) => unknown>)[name] as (...a: unknown[]) => unknown;
      out[name] = async (...args: unknown[]) => {
        if (closed) throw new MemoryError(ErrorCode.CLOSED, 'the memory store is closed');
        try {
          return await fn.apply(port, args);
        } catch (error) {
          throw normalize(error, role, name);
        }
      };
    }
    return out as T;
  };

  const roles = Object.fromEntries(ROLES.map((r) => [r, guard(r, store[r])])) as Pick<
    MemoryStore,
    (typeof ROLES)[number]
  >;

  return {
    inner: store,
    name: store.name,
    capabilities: store.capabilities,
    ...roles,
    isClosed: () => closed,
    setup() {
      if (closed) return Promise.reject(new MemoryError(ErrorCode.CLOSED, 'the memory store is closed'));
      setup ??= store.setup().catch((error: unknown) => {
        setup = null;
        throw normalize(error, 'store', 'setup');
      });
      return setup;
    },
    async ping() {
      if (closed) throw new MemoryError(ErrorCode.CLOSED, 'the memory store is closed');
      try {
        await store.ping();
      } catch (error) {
        throw normalize(error, 'store', 'ping');
      }
    },
    async transaction<T>(fn: () => Promise<T>): Promise<T> {
      if (closed) throw new MemoryError(ErrorCode.CLOSED, 'the memory store is closed');
      try {
        return await store.transaction(fn);
      } catch (error) {
        throw normalize(error, 'store', 'transaction');
      }
    },
    ...(store.backup
      ? {
          async backup(input: { readonly path: string }) {
            if (closed) throw new MemoryError(ErrorCode.CLOSED, 'the memory store is closed');
            try {
              return await (store.backup as NonNullable<MemoryStore['backup']>)(input);
            } catch (error) {
              throw normalize(error, 'store', 'backup');
            }
          },
        }
      : {}),
    close() {
      closing ??= (async () => {
        closed = true;
        try {
          await store.close();
        } catch (error) {
          logger?.({ level: 'warn', event: 'store.close_failed', data: { store: store.name }, error });
        }
      })();
      return closing;
    },
  };
}

import type { RecordedFile } from './types.js';

export interface RestContext {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
  files: RecordedFile[];
}

export interface RestResult {
  status: number;
  body?: unknown;
}

export type RestHandler = (ctx: RestContext) => RestResult | Promise<RestResult>;

interface Route {
  method: string;
  segments: string[];
  handler: RestHandler;
  /** Bot-token authentication required (interaction/webhook-token routes are unauthenticated). */
  auth: boolean;
}

export type RouteMatch =
  | { kind: 'found'; handler: RestHandler; params: Record<string, string>; auth: boolean }
  | { kind: 'method-not-allowed' }
  | { kind: 'not-found' };

/** Minimal first-match router over `/segment/:param` patterns. */
export class Router {
  readonly #routes: Route[] = [];

  add(method: string, pattern: string, handler: RestHandler, options: { auth?: boolean } = {}): this {
    this.#routes.push({ method, segments: split(pattern), handler, auth: options.auth ?? true });
    return this;
  }

  match(method: string, path: string): RouteMatch {
    const segments = split(path);
    let pathMatched = false;
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      pathMatched = true;
      if (route.method === method) return { kind: 'found', handler: route.handler, params, auth: route.auth };
    }
    return pathMatched ? { kind: 'method-not-allowed' } : { kind: 'not-found' };
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i] as string;
    const value = actual[i] as string;
    if (expected.startsWith(':')) params[expected.slice(1)] = value;
    else if (expected !== value) return undefined;
  }
  return params;
}

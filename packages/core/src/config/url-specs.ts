import type { z } from 'zod';

/** Expands `$NAME` / `${NAME}` from the environment; a missing variable is a config issue. */
export function expandEnv(
  value: string,
  env: Readonly<Record<string, string | undefined>>,
  ctx: z.RefinementCtx,
): string {
  return value.replace(/\$\{?([A-Z_][A-Z0-9_]*)\}?/g, (_m, name: string) => {
    const v = env[name];
    if (v === undefined || v === '') {
      ctx.addIssue({
        code: 'custom',
        message: `$${name} is not set; export ${name}=<value> in the environment of the bot (or write the value into the URL)`,
      });
      return '';
    }
    return v;
  });
}

/**
 * The default storage: `permafrost.db` in the process's working directory. In `sqlite://` URLs the
 * path follows the two slashes of the scheme: `sqlite://./data/bot.db` and `sqlite://bot.db` are
 * relative to the working directory, `sqlite:///var/lib/bot/memory.db` (three slashes) is absolute.
 */
export const DEFAULT_STORAGE = 'sqlite://./permafrost.db';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export interface StorageSpec {
  readonly url: string;
  readonly scheme: 'sqlite' | 'mongodb' | 'memory';
}

export function parseStorageUrl(raw: string, ctx: z.RefinementCtx): StorageSpec {
  if (raw === 'memory' || raw === 'memory://') return { url: 'memory://', scheme: 'memory' };
  // sqlite URLs carry file paths (and `:memory:`), which are not always valid WHATWG URLs.
  if (raw.startsWith('sqlite://')) {
    if (raw.length === 'sqlite://'.length)
      ctx.addIssue({
        code: 'custom',
        message:
          'sqlite URL needs a path: sqlite://./memory.db (relative to the working directory) or sqlite:///var/lib/bot/memory.db (absolute)',
      });
    return { url: raw, scheme: 'sqlite' };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1]?.toLowerCase();
  if (scheme === 'mongodb' || scheme === 'mongodb+srv') {
    try {
      new URL(raw);
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: 'not a valid mongodb URL; use mongodb://host[:port]/database',
      });
    }
    return { url: raw, scheme: 'mongodb' };
  }
  ctx.addIssue({
    code: 'custom',
    message: scheme
      ? `unsupported storage scheme "${scheme}" (use sqlite, mongodb, mongodb+srv or memory)`
      : 'storage must be a URL such as sqlite:///path.db or mongodb://host/db',
  });
  return { url: raw, scheme: 'memory' };
}

/**
 * Path of a sqlite URL: `sqlite:///abs/x.db` → `/abs/x.db`, `sqlite://rel.db` → `rel.db`,
 * `sqlite://./dir/x.db` → `./dir/x.db` (relative paths resolve against the working directory), `:memory:`.
 */
export function sqlitePath(url: string): string {
  const rest = url.replace(/^sqlite:\/\//, '');
  if (rest === ':memory:' || rest === '/:memory:') return ':memory:';
  return decodeURIComponent(rest.split('?')[0] ?? '');
}

export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high'] as const;

export interface LlmUrlFields {
  baseUrl: string;
  apiKey: string;
  model?: string;
  smallModel?: string;
  reasoningEffort?: string;
  temperature?: number | null;
  structuredOutputs?: string;
  maxTokens?: number;
  maxTokensKey?: string;
  deadlineMs?: number;
}

/**
 * `openai://<key or $ENV>@host[:port]/path?model=…` → base URL + options. https unless the host is
 * loopback (then http).
 */
export function parseOpenAiUrl(
  raw: string,
  env: Readonly<Record<string, string | undefined>>,
  ctx: z.RefinementCtx,
): LlmUrlFields | null {
  const match = /^openai:\/\/(?:([^@]*)@)?([^/?#]+)([^?#]*)(?:\?([^#]*))?$/.exec(raw);
  if (!match) {
    ctx.addIssue({
      code: 'custom',
      message:
        'not an endpoint URL; use openai://<key or $ENV>@host[:port]/path?model=<name>, "heuristic" or null',
    });
    return null;
  }
  const [, keyPart = '', host = '', path = '', query = ''] = match;
  const apiKey = expandEnv(decodeURIComponent(keyPart), env, ctx);
  const hostname = host.replace(/:\d+$/, '');
  const protocol = LOOPBACK.has(hostname) ? 'http' : 'https';
  const params = new URLSearchParams(query);
  const out: LlmUrlFields = { baseUrl: `${protocol}://${host}${path.replace(/\/$/, '')}`, apiKey };
  for (const [k, v] of params) {
    switch (k) {
      case 'model':
        out.model = v;
        break;
      case 'small_model':
        out.smallModel = v;
        break;
      case 'reasoning':
        out.reasoningEffort = v;
        break;
      case 'temperature':
        out.temperature = v === 'none' ? null : Number(v);
        break;
      case 'structured_outputs':
        out.structuredOutputs = v;
        break;
      case 'max_tokens':
        out.maxTokens = Number(v);
        break;
      case 'max_tokens_key':
        out.maxTokensKey = v;
        break;
      case 'deadline_ms':
        out.deadlineMs = Number(v);
        break;
      case 'dimensions':
        (out as LlmUrlFields & { dimensions?: number }).dimensions = Number(v);
        break;
      default:
        ctx.addIssue({
          code: 'custom',
          message: `unknown openai:// parameter "${k.slice(0, 40)}"; use model, small_model, reasoning, temperature, structured_outputs, max_tokens, max_tokens_key, deadline_ms or dimensions`,
        });
    }
  }
  return out;
}

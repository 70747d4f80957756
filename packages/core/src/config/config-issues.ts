import type { z } from 'zod';
import type { MemoryIssue } from '../errors/index.js';

type Issue = z.core.$ZodIssue;
type Path = readonly (string | number)[];

/** What a value is, for messages: numbers and booleans as themselves, anything else by kind only. */
function shown(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}

const article = (expected: string) => (/^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`);

/** Key names one edit apart (or differing only in case): likely typos. */
function closeTo(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x === y) return true;
  if (Math.abs(x.length - y.length) > 1) return false;
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  const rest = (s: string, skip: number) => s.slice(i + skip);
  return (
    rest(x, 1) === rest(y, 1) ||
    rest(x, 1) === rest(y, 0) ||
    rest(x, 0) === rest(y, 1) ||
    (x[i] === y[i + 1] && x[i + 1] === y[i] && rest(x, 2) === rest(y, 2))
  );
}

/** Keys the configuration schema accepts at `path` (empty when it is not a plain object there). */
function keysAt(schema: z.ZodType, path: Path): string[] {
  let node: unknown = schema;
  for (const segment of [...path, null]) {
    // Unwrap defaults, prefaults, optionals and nullables down to the object.
    for (let guard = 0; guard < 8; guard++) {
      const def = (node as { _zod?: { def?: { innerType?: unknown } } })._zod?.def;
      if (!def?.innerType) break;
      node = def.innerType;
    }
    const shape = (node as { shape?: Record<string, unknown> }).shape;
    if (!shape || typeof shape !== 'object') return [];
    if (segment === null) return Object.keys(shape);
    node = shape[String(segment)];
  }
  return [];
}

/**
 * The zod issues of a union that did not match: the issues of the branches that accepted the
 * value's type (their problems are the real ones), or null when no branch took that type at all.
 */
function matchedBranches(issue: Extract<Issue, { code: 'invalid_union' }>): Issue[] | null {
  const typeMismatch = (i: Issue) =>
    i.path.length === 0 &&
    (i.code === 'invalid_type' || i.code === 'invalid_value' || i.code === 'invalid_format');
  const kept = issue.errors.filter((branch) => !branch.every(typeMismatch));
  return kept.length > 0 ? kept.flat() : null;
}

/** What each union-typed key accepts, for a value no branch took. */
const UNION_EXPECTED: Readonly<Record<string, string>> = {
  llm: 'use "heuristic", null (extraction off), an openai://<key or $ENV>@host/path?model=<name> URL or an endpoint object { baseUrl, apiKey, model }',
  embeddings:
    'use "hashing", "local", "local:<model folder>", an openai://<key>@host/path?model=<name> URL or an object with provider hashing|local|openai',
};

function describe(issue: Issue, schema: z.ZodType, at: Path): MemoryIssue[] {
  const path = [...at, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
  const one = (message: string, code: string = issue.code): MemoryIssue[] => [{ path, code, message }];
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_union': {
      const inner = matchedBranches(issue);
      if (inner) return inner.flatMap((i) => describe(i, schema, path));
      const key = String(path[path.length - 1] ?? '');
      return one(
        `${shown(input)} is not accepted; ${UNION_EXPECTED[key] ?? 'see docs/configuration.md for the accepted forms'}`,
      );
    }
    case 'unrecognized_keys': {
      const known = keysAt(schema, path);
      return issue.keys.map((key) => {
        const guess = known.find((k) => closeTo(k, key));
        return {
          path: [...path, key],
          code: issue.code,
          message: guess
            ? `unknown key; did you mean "${guess}"?`
            : `unknown key; remove it${known.length > 0 ? ` (keys here: ${known.join(', ')})` : ''}`,
        };
      });
    }
    case 'too_small':
      if (issue.origin === 'number' || issue.origin === 'int')
        return one(
          `${shown(input)} is too small; use ${String(issue.minimum)}${issue.inclusive === false ? ' exclusive' : ''} or more`,
        );
      return one(
        issue.origin === 'string'
          ? 'must not be empty'
          : `needs at least ${String(issue.minimum)} entr${issue.minimum === 1 ? 'y' : 'ies'}`,
      );
    case 'too_big':
      if (issue.origin === 'number' || issue.origin === 'int')
        return one(`${shown(input)} is too large; use ${String(issue.maximum)} or less`);
      return one(
        `too long; at most ${String(issue.maximum)} ${issue.origin === 'string' ? 'characters' : 'entries'}`,
      );
    case 'invalid_type':
      if (input === undefined) return one(`missing; set it to ${article(issue.expected)}`);
      if (issue.expected === 'int') return one(`${shown(input)} is not a whole number; use an integer`);
      return one(`expected ${article(issue.expected)}, got ${shown(input)}`);
    case 'invalid_value':
      return one(
        `${typeof input === 'string' && /^[\w.-]{1,40}$/.test(input) ? `"${input}"` : shown(input)} is not allowed; use one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`,
      );
    case 'invalid_format':
      return one(
        issue.format === 'url' ? 'not a valid URL; use e.g. https://api.example.com/v1' : issue.message,
      );
    case 'not_multiple_of':
      return one(`${shown(input)} is not a whole number; use an integer`);
    default:
      // Custom issues carry messages written by the URL parsers (key, problem and fix already).
      return one(issue.message);
  }
}

/** The URL query parameter of each endpoint field (`openai://…?model=…`). */
const URL_PARAMS: Readonly<Record<string, string>> = {
  model: 'model',
  smallModel: 'small_model',
  reasoningEffort: 'reasoning',
  temperature: 'temperature',
  structuredOutputs: 'structured_outputs',
  maxTokensKey: 'max_tokens_key',
  dimensions: 'dimensions',
  deadlineMs: 'deadline_ms',
};

/**
 * Re-reports the issues of an endpoint object built from an `openai://` URL on the URL's own key,
 * in the URL's terms: `temperature=7 is too large; use 2 or less`, `the URL has no ?model=`.
 */
export function forwardUrlIssues(issues: readonly Issue[], ctx: z.RefinementCtx): void {
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    const param = URL_PARAMS[field];
    let message: string;
    if (param && (issue as { input?: unknown }).input === undefined && issue.code === 'invalid_type')
      message = `the URL has no ?${param}=; add ?${param}=<name>, e.g. openai://$KEY@host/v1?model=gpt-4o-mini`;
    else if (field === 'baseUrl') message = 'the host or path in the URL is not valid';
    else {
      const text = describe({ ...issue, path: [] }, EMPTY_SCHEMA, [])[0]?.message ?? issue.message;
      const value = shown((issue as { input?: unknown }).input);
      message = text.startsWith(`${value} `) ? `${param ?? field}=${text}` : `${param ?? field}: ${text}`;
    }
    ctx.addIssue({ code: 'custom', message });
  }
}

const EMPTY_SCHEMA = {} as z.ZodType;

/** Zod's issues for a configuration → issues naming the key, the problem and the fix. */
export function configIssues(issues: readonly Issue[], schema: z.ZodType): MemoryIssue[] {
  return issues.flatMap((issue) => describe(issue, schema, []));
}

/** `CONFIG_INVALID` message: every issue as `key: problem; fix`. */
export function configMessage(issues: readonly MemoryIssue[]): string {
  const lines = issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return `invalid configuration: ${lines.join(' | ')}`;
}

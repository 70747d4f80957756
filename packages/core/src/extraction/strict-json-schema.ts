import { z } from 'zod';
import { ErrorCode } from '../errors/error-codes.js';
import { MemoryError, type MemoryIssue } from '../errors/memory-error.js';
import type { JsonSchema } from '../ports/chat-llm.js';

/** A JSON Schema node as emitted by zod (keys read here declared; the rest by index). */
interface Node {
  type?: unknown;
  properties?: unknown;
  required?: unknown;
  additionalProperties?: unknown;
  items?: unknown;
  anyOf?: unknown;
  oneOf?: unknown;
  enum?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  [key: string]: unknown;
}

/** Keywords OpenAI strict structured outputs rejects; a schema using them is a programming error. */
const UNSUPPORTED = [
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'patternProperties',
  'propertyNames',
  'dependentSchemas',
  'dependentRequired',
  'prefixItems',
  'contains',
  'minContains',
  'maxContains',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  '$dynamicRef',
  '$dynamicAnchor',
] as const;

/**
 * Dropped: annotations strict mode does not take (`default`) and string length bounds, which several
 * OpenAI-compatible providers reject in strict mode. Zod still enforces them when the reply is parsed.
 */
const DROPPED = ['$schema', '$id', 'default', 'minLength', 'maxLength'] as const;

const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean']);

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

function fail(path: readonly string[], message: string): never {
  const issue: MemoryIssue = { path: [...path], code: 'strict_schema', message };
  throw new MemoryError(ErrorCode.SCHEMA_INVALID, 'schema cannot be used with strict structured outputs', {
    issues: [issue],
  });
}

/** `anyOf: [{type: 'string', …}, {type: 'null'}]` → `{type: ['string', 'null'], …}` (enum gains null). */
function collapseNullable(node: Node): void {
  const anyOf = node.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return;
  const nullIndex = anyOf.findIndex((b) => isNode(b) && b.type === 'null' && Object.keys(b).length === 1);
  if (nullIndex < 0) return;
  const other: unknown = anyOf[1 - nullIndex];
  if (!isNode(other) || typeof other.type !== 'string' || !PRIMITIVES.has(other.type)) return;
  if ('anyOf' in other || '$ref' in other) return;
  delete node.anyOf;
  Object.assign(node, other, { type: [other.type, 'null'] });
  const values = other.enum;
  if (Array.isArray(values) && !values.includes(null)) node.enum = [...values, null];
}

function strictify(node: Node, path: readonly string[]): void {
  collapseNullable(node);
  for (const key of UNSUPPORTED) if (key in node) fail(path, `keyword "${key}" is not supported`);
  for (const key of DROPPED) delete node[key];
  if (node.type === 'integer') {
    if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
    if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
  }
  if (Array.isArray(node.oneOf)) {
    node.anyOf = node.oneOf;
    delete node.oneOf;
  }

  const isObject = node.type === 'object' || 'properties' in node;
  if (isObject) {
    const props = node.properties;
    if (!isNode(props)) fail(path, 'objects need declared properties (records / maps are not supported)');
    const additional = node.additionalProperties;
    if (additional !== undefined && additional !== false)
      fail(path, 'objects may not allow additional properties');
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    for (const key of Object.keys(props))
      if (!required.has(key))
        fail([...path, 'properties', key], 'optional properties must be nullable instead');
    node.required = Object.keys(props);
    node.additionalProperties = false;
    for (const [key, child] of Object.entries(props))
      if (isNode(child)) strictify(child, [...path, 'properties', key]);
  }
  if (node.type === 'array' || (Array.isArray(node.type) && node.type.includes('array'))) {
    if (!isNode(node.items)) fail(path, 'arrays need an items schema');
  }
  if (isNode(node.items)) strictify(node.items, [...path, 'items']);
  if (Array.isArray(node.anyOf))
    node.anyOf.forEach((b, i) => {
      if (isNode(b)) strictify(b, [...path, 'anyOf', String(i)]);
    });
  for (const defsKey of ['$defs', 'definitions'])
    if (isNode(node[defsKey]))
      for (const [name, def] of Object.entries(node[defsKey]))
        if (isNode(def)) strictify(def, [...path, defsKey, name]);
}

/**
 * JSON Schema for OpenAI strict structured outputs from a zod 4 schema (its output side): every
 * object closed (`additionalProperties: false`) with all properties required; nullable primitives as
 * `type: [T, 'null']`; `oneOf` as `anyOf`; `$schema`, `default` and string length bounds removed.
 * Throws MemoryError SCHEMA_INVALID (with the path in `issues`) for shapes strict mode cannot take:
 * optional-but-not-nullable fields, records, tuples, intersections, a non-object root.
 */
export function toStrictJsonSchema(schema: z.ZodType): JsonSchema {
  let raw: Node;
  try {
    raw = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'throw' }) as Node;
  } catch (cause) {
    throw new MemoryError(ErrorCode.SCHEMA_INVALID, 'schema cannot be represented as JSON Schema', { cause });
  }
  if (raw.type !== 'object') fail([], 'the root must be an object');
  strictify(raw, []);
  return raw;
}

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toStrictJsonSchema } from '../../src/adapters/llm/index.js';
import { MemoryError } from '../../src/errors/index.js';
import {
  commandOutputSchema,
  extractionOutputSchema,
  reconcileOutputSchema,
} from '../../src/extraction/index.js';

interface Node {
  readonly type?: unknown;
  readonly properties?: unknown;
  readonly required?: unknown;
  readonly additionalProperties?: unknown;
  readonly items?: unknown;
  readonly anyOf?: unknown;
  readonly enum?: unknown;
  readonly [key: string]: unknown;
}
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

const UNSUPPORTED = [
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'oneOf',
  'patternProperties',
  'propertyNames',
  'prefixItems',
];
const OPENAI_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

/**
 * Structural rules of OpenAI strict structured outputs: root object (no union), every object closed
 * with every property required, only supported keywords, arrays with items, at most 10 levels of
 * object nesting and 5000 properties.
 */
function strictProblems(schema: Node): string[] {
  const problems: string[] = [];
  let properties = 0;
  if (schema.type !== 'object' || 'anyOf' in schema) problems.push('root must be a plain object');
  if ('$schema' in schema) problems.push('$schema present');
  const visit = (node: Node, path: string, depth: number) => {
    for (const k of UNSUPPORTED) if (k in node) problems.push(`${path}: ${k}`);
    if ('default' in node) problems.push(`${path}: default`);
    const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
    for (const t of types) if (!OPENAI_TYPES.has(String(t))) problems.push(`${path}: type ${String(t)}`);
    if (
      !('type' in node) &&
      !('anyOf' in node) &&
      !('$ref' in node) &&
      !('enum' in node) &&
      !('const' in node)
    )
      problems.push(`${path}: no type`);
    if (types.includes('object')) {
      if (depth > 10) problems.push(`${path}: nested too deep`);
      const props = node.properties;
      if (!isNode(props)) problems.push(`${path}: no properties`);
      else {
        properties += Object.keys(props).length;
        const required = node.required;
        if (!Array.isArray(required) || [...required].sort().join() !== Object.keys(props).sort().join())
          problems.push(`${path}: not every property required`);
        for (const [k, v] of Object.entries(props)) if (isNode(v)) visit(v, `${path}.${k}`, depth + 1);
      }
      if (node.additionalProperties !== false) problems.push(`${path}: additionalProperties not false`);
    }
    if (types.includes('array')) {
      if (!isNode(node.items)) problems.push(`${path}: array without items`);
      else visit(node.items, `${path}[]`, depth);
    }
    if (Array.isArray(node.anyOf))
      for (const [i, b] of node.anyOf.entries()) if (isNode(b)) visit(b, `${path}|${i}`, depth);
    if (Array.isArray(node.enum) && types.includes('null') && !node.enum.includes(null))
      problems.push(`${path}: nullable enum without null`);
  };
  visit(schema, '$', 1);
  if (properties > 5000) problems.push('too many properties');
  return problems;
}

function thrown(schema: z.ZodType): unknown {
  try {
    toStrictJsonSchema(schema);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('toStrictJsonSchema', () => {
  it.each([
    ['extraction output', extractionOutputSchema],
    ['reconcile output', reconcileOutputSchema],
    ['command output', commandOutputSchema],
  ])('%s is accepted by strict mode', (_name, schema) => {
    const json = toStrictJsonSchema(schema);
    expect(strictProblems(json)).toEqual([]);
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('nullable primitives become type [T, "null"]; nullable enums include null', () => {
    const json = toStrictJsonSchema(
      z.object({ a: z.string().max(5).nullable(), b: z.enum(['x', 'y']).nullable(), c: z.number().int() }),
    ) as { properties: Record<string, Node> };
    const { a, b, c } = json.properties;
    expect(a).toEqual({ type: ['string', 'null'] });
    expect(b).toEqual({ type: ['string', 'null'], enum: ['x', 'y', null] });
    expect(c).toEqual({ type: 'integer' });
  });

  it('extraction: speakerToken nullable, nested objects closed and required', () => {
    const json = toStrictJsonSchema(extractionOutputSchema) as Node;
    const { operations } = json.properties as Record<string, Node>;
    const fact = operations?.items as Node;
    const { speakerToken } = fact.properties as Record<string, Node>;
    expect(speakerToken).toEqual({ type: ['string', 'null'] });
    expect(fact.additionalProperties).toBe(false);
    expect(fact.required).toEqual(Object.keys(fact.properties as Node));
  });

  it('closes non-strict objects, keeps nullable objects as anyOf and turns oneOf into anyOf', () => {
    const json: Node = toStrictJsonSchema(
      z.object({
        o: z.object({ p: z.string() }).nullable(),
        u: z.discriminatedUnion('k', [
          z.object({ k: z.literal('a') }),
          z.object({ k: z.literal('b'), n: z.number() }),
        ]),
        d: z.string().default('x'),
      }),
    );
    expect(strictProblems(json)).toEqual([]);
    const { o, u } = json.properties as Record<string, Node>;
    expect(o?.anyOf).toHaveLength(2);
    expect(u?.anyOf).toHaveLength(2);
  });

  it('rejects shapes strict mode cannot take, naming the path', () => {
    const cases = [
      z.object({ opt: z.string().optional() }),
      z.object({ rec: z.record(z.string(), z.number()) }),
      z.object({ tup: z.tuple([z.string(), z.number()]) }),
      z.array(z.string()),
    ];
    for (const schema of cases) expect(MemoryError.is(thrown(schema), 'SCHEMA_INVALID')).toBe(true);
    const nested = thrown(z.object({ inner: z.object({ opt: z.string().optional() }) })) as MemoryError;
    expect(nested.issues[0]?.path).toEqual(['properties', 'inner', 'properties', 'opt']);
  });
});

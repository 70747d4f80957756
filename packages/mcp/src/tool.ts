import type { Memory } from '@permafrost/core';
import { z } from 'zod';
import { schemaFailure } from './errors.js';

/** A validated call, ready to run: its guild is known before anything is read. */
export interface PreparedCall {
  readonly guildId: string;
  run(): Promise<Record<string, unknown>>;
}

/** One MCP tool: zod input and output schemas and a handler over one Memory. */
export interface Tool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: z.ZodObject;
  readonly output: z.ZodObject;
  /** Reads only (MCP `readOnlyHint`). */
  readonly readOnly: boolean;
  /** Retires data (MCP `destructiveHint`). */
  readonly destructive?: boolean;
  /** Validates raw arguments (throws SCHEMA_INVALID with paths only) and binds the handler. */
  prepare(raw: unknown, memory: Memory): PreparedCall;
}

export interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: I;
  readonly output: O;
  readonly readOnly: boolean;
  readonly destructive?: boolean;
  run(args: z.output<I> & { readonly guildId: string }, memory: Memory): Promise<z.output<O>>;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(spec: ToolSpec<I, O>): Tool {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    output: spec.output,
    readOnly: spec.readOnly,
    ...(spec.destructive ? { destructive: true } : {}),
    prepare(raw, memory) {
      const parsed = spec.input.safeParse(raw ?? {});
      if (!parsed.success) throw schemaFailure(spec.name, parsed.error);
      const args = parsed.data as z.output<I> & { readonly guildId: string };
      return {
        guildId: args.guildId,
        run: async () => (await spec.run(args, memory)) as Record<string, unknown>,
      };
    },
  };
}

/** A JSON Schema of a zod schema as MCP lists it (an object schema without `$schema`). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}

/** Shared input fields. */
export const idField = z.string().min(1).max(128);
export const guildField = idField.describe('The guild (server) id; must be one this MCP server serves.');
export const memberField = idField.describe('A member (platform user) id.');
/** An ISO 8601 instant with an offset (`2026-05-01T00:00:00Z`). */
export const instantField = z.iso.datetime({ offset: true });

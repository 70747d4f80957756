import { MemoryError } from '@permafrost/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpFailure, schemaFailure, toRpcError } from '../src/errors.js';
import { GuildScope, readOptions } from '../src/index.js';

describe('MCP errors carry codes and paths, never content', () => {
  it('maps MemoryError codes, own refusals and unknown errors', () => {
    const schema = toRpcError(new MemoryError('SCHEMA_INVALID', 'invalid input for x at: text'));
    expect(schema).toMatchObject({ code: -32602, message: 'SCHEMA_INVALID: invalid input for x at: text' });
    expect(schema.data.code).toBe('SCHEMA_INVALID');
    expect(toRpcError(new McpFailure('ADMIN_REQUIRED', 'no')).code).toBe(-32600);
    const unknown = toRpcError(new Error('SELECT secret FROM members'));
    expect(unknown).toMatchObject({ code: -32603, data: { code: 'INTERNAL' } });
    expect(unknown.message).not.toMatch(/secret/);
  });

  it('reports zod failures by path and code only (unknown keys are not echoed)', () => {
    const parsed = z.object({ a: z.number() }).strict().safeParse({ a: 'x', '<img src=x>': 1 });
    const failure = schemaFailure('tool', parsed.error as z.ZodError);
    expect(JSON.stringify(failure.issues) + failure.message).not.toMatch(/img/);
    expect(failure.issues.map((i) => i.code).sort()).toEqual(['invalid_type', 'unrecognized_keys']);
  });

  it('scopes guilds and builds reads through one function', () => {
    const scope = new GuildScope(['1', '2', '2']);
    expect(scope.guilds).toEqual(['1', '2']);
    expect(() => scope.check('3')).toThrow(/GUILD|serve/);
    expect(() => new GuildScope([])).toThrow();
    expect(readOptions('1', { channelId: 'c' })).toEqual({ guildId: '1', audience: { channelId: 'c' } });
    expect(readOptions('1', { channelId: 'c', requesterId: 'u' })).toEqual({
      guildId: '1',
      audience: { channelId: 'c', requesterId: 'u' },
    });
  });
});

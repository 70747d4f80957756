import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

export function newClient(): Client {
  return new Client({ name: 'permafrost-test', version: '1.0.0' });
}

/** Calls a tool that must succeed and returns its structured content. */
export async function call<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<T> {
  const r = await client.callTool({ name, arguments: args });
  expect(r.isError ?? false).toBe(false);
  expect(r.structuredContent).toBeDefined();
  return r.structuredContent as T;
}

/** Calls a tool that must fail with an MCP (JSON-RPC) error and returns that error. */
export async function callFails(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<McpError & { data: { code: string; issues: { path: (string | number)[]; code: string }[] } }> {
  const error = await client.callTool({ name, arguments: args }).then(
    (r) => {
      throw new Error(`expected an MCP error, got ${JSON.stringify(r).slice(0, 300)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as never;
}

export interface FactLike {
  readonly id: string;
  readonly subjectId: string | null;
  readonly text: string;
  readonly active: boolean;
  readonly attribution: { readonly speakerId: string | null };
}

/** Reads a JSON resource. */
export async function readJson<T>(client: Client, uri: string): Promise<T> {
  const [content] = (await client.readResource({ uri })).contents;
  if (!content || !('text' in content)) throw new Error(`no text content at ${uri}`);
  return JSON.parse(content.text) as T;
}

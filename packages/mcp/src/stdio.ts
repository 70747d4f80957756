import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { MemoryMcp } from './server.js';

export interface StdioServing {
  /** Resolves when the client closes stdin (or `close()` was called). */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves over stdin/stdout (newline-delimited JSON-RPC). stdout is the protocol: nothing else may
 * be written to it while serving.
 */
export async function serveMcpStdio(
  mcp: MemoryMcp,
  io: { readonly stdin?: Readable; readonly stdout?: Writable } = {},
): Promise<StdioServing> {
  const stdin = io.stdin ?? process.stdin;
  const stdout = io.stdout ?? process.stdout;
  const server = mcp.createServer();
  const transport = new StdioServerTransport(stdin, stdout);
  let finish: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    finish = resolve;
  });
  transport.onclose = () => finish();
  const onEnd = () => {
    void server.close().finally(finish);
  };
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  await server.connect(transport);
  return {
    closed,
    async close() {
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
      await server.close();
      finish();
    },
  };
}

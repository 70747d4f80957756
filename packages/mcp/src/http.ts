import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, MemoryError } from '@permafrost/core';
import type { MemoryMcp } from './server.js';

export interface HttpOptions {
  /** Interface to bind (default 127.0.0.1). Anything but loopback requires `token`. */
  readonly host?: string;
  /** Port (default 0: any free port; see `url`). */
  readonly port?: number;
  /** Bearer token every request must carry (`Authorization: Bearer <token>`). */
  readonly token?: string;
  /** Path of the MCP endpoint (default `/mcp`). */
  readonly path?: string;
}

export interface HttpServing {
  /** The endpoint, e.g. `http://127.0.0.1:49152/mcp`. */
  readonly url: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const MIN_TOKEN_CHARS = 16;

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Constant-time comparison of a presented bearer token with the expected one. */
export function tokenMatches(header: string | undefined, expected: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m !== null && timingSafeEqual(digest(m[1] as string), digest(expected));
}

function refuse(res: ServerResponse, status: number, code: string, message: string, extra = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...extra });
  res.end(
    JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: `${code}: ${message}` } }),
  );
}

/**
 * Checks the binding rules before anything listens: a non-loopback host needs a bearer token, and
 * so does a server with admin resources. Throws CONFIG_INVALID naming the rule.
 */
export function checkHttpOptions(mcp: MemoryMcp, options: HttpOptions): void {
  const host = options.host ?? '127.0.0.1';
  const token = options.token;
  if (token !== undefined && token.length < MIN_TOKEN_CHARS)
    throw new MemoryError(
      ErrorCode.CONFIG_INVALID,
      `the bearer token must be at least ${MIN_TOKEN_CHARS} characters`,
    );
  if (!isLoopback(host) && token === undefined)
    throw new MemoryError(
      ErrorCode.CONFIG_INVALID,
      'refusing to serve MCP over HTTP on a non-loopback address without a bearer token (--token or PERMAFROST_MCP_TOKEN)',
    );
  if (mcp.admin && token === undefined)
    throw new MemoryError(
      ErrorCode.CONFIG_INVALID,
      'admin resources over HTTP require a bearer token (--token or PERMAFROST_MCP_TOKEN)',
    );
}

/**
 * Streamable HTTP in stateless mode: every POST is served by a fresh protocol object over the
 * shared Memory, scope and meter. On loopback the Host header must name loopback (DNS rebinding).
 */
export async function serveMcpHttp(mcp: MemoryMcp, options: HttpOptions = {}): Promise<HttpServing> {
  checkHttpOptions(mcp, options);
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const token = options.token;
  let port = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== path) return refuse(res, 404, 'NOT_FOUND', 'no such endpoint');
    if (isLoopback(host)) {
      const hostHeader = (req.headers.host ?? '').toLowerCase();
      const allowed = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
      if (!allowed.includes(hostHeader)) return refuse(res, 403, 'FORBIDDEN', 'unexpected Host header');
    }
    if (token !== undefined && !tokenMatches(req.headers.authorization, token))
      return refuse(res, 401, 'UNAUTHORIZED', 'a valid bearer token is required', {
        'www-authenticate': 'Bearer realm="permafrost-mcp"',
      });
    if (req.method !== 'POST')
      return refuse(res, 405, 'METHOD_NOT_ALLOWED', 'this server is stateless: POST only', { allow: 'POST' });
    const server = mcp.createServer();
    const transport = new StreamableHTTPServerTransport({});
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, 'INTERNAL', 'the request failed');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

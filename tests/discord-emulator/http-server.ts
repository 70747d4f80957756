import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { parseBody, readRaw } from './http-body.js';
import { ApiError, notFound, unauthorized } from './http-errors.js';
import type { PendingRequest } from './request-holds.js';
import type { Router } from './router.js';
import type { RecordedFile, RecordedRequest } from './types.js';

export interface HttpServerDeps {
  router: Router;
  token: string;
  /** Bytes served for `/attachments/:channelId/:attachmentId/:filename` (the emulator's CDN). */
  file: (attachmentId: string) => RecordedFile | undefined;
  onRequest: (record: RecordedRequest) => void;
  onError: (error: unknown) => void;
  /** Awaited before a request is routed (see `DiscordEmulator.holdRequests`). */
  beforeHandle?: (request: PendingRequest) => Promise<void>;
}

const API_PREFIX = /^\/api(?:\/v(\d+))?(\/.*)$/;

/** The REST half of the emulator: Discord-style routing, auth, JSON errors and request recording. */
export function createHttpServer(deps: HttpServerDeps): Server {
  return createServer((req, res) => {
    handle(deps, req, res).catch((error: unknown) => {
      deps.onError(error);
      if (!res.headersSent) send(res, 500, { message: '500: Internal Server Error', code: 0 });
    });
  });
}

async function handle(deps: HttpServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = (req.method ?? 'GET').toUpperCase();
  const raw = await readRaw(req);
  const attachment = /^\/attachments\/\d+\/(\d+)\/[^/]+$/.exec(url.pathname);
  if (attachment && method === 'GET') {
    const file = deps.file(attachment[1] as string);
    if (!file) return send(res, 404, notFound().toJSON());
    res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.data.length });
    res.end(file.data);
    return;
  }
  const headers = Object.fromEntries(
    Object.entries(req.headers).map(([k, v]) => [
      k.toLowerCase(),
      Array.isArray(v) ? v.join(', ') : (v ?? ''),
    ]),
  );
  const record: RecordedRequest = {
    method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    body: undefined,
    files: [],
    status: 0,
    at: Date.now(),
  };
  let status = 500;
  let body: unknown;
  try {
    const api = API_PREFIX.exec(url.pathname);
    if (!api) throw notFound();
    if (api[1] !== undefined && api[1] !== '10') throw new ApiError(400, 50041, 'Invalid API version');
    const path = decodePath(api[2] as string);
    record.path = path;
    await deps.beforeHandle?.({ method, path });
    const parsed = await parseBody(raw, req.headers['content-type']);
    record.body = parsed.body;
    record.files = parsed.files;
    const match = deps.router.match(method, path);
    if (match.kind === 'not-found') throw notFound();
    if (match.kind === 'method-not-allowed') throw new ApiError(405, 0, '405: Method Not Allowed');
    if (match.auth && req.headers.authorization !== `Bot ${deps.token}`) throw unauthorized();
    const result = await match.handler({
      method,
      path,
      params: match.params,
      query: url.searchParams,
      headers,
      body: parsed.body,
      files: parsed.files,
    });
    status = result.status;
    body = result.body;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    status = error.status;
    body = error.toJSON();
  } finally {
    record.status = status;
    deps.onRequest(record);
  }
  send(res, status, body);
}

/** Decodes each segment (discord.js sends `@original` as `%40original`). */
function decodePath(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/');
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (status === 204 || body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { chatCompletionBody, embeddingsBody, errorBody, type ScriptedReply } from './openai-replies.js';

/** The fields of a recorded request body that tests usually read (everything else by index). */
export interface OpenAiRequestBody {
  readonly model?: string;
  readonly messages?: readonly { readonly role: string; readonly content: unknown }[];
  readonly temperature?: number;
  readonly max_tokens?: number;
  readonly max_completion_tokens?: number;
  readonly response_format?: {
    readonly type: string;
    readonly json_schema?: { readonly name: string; readonly strict?: boolean; readonly schema: unknown };
  };
  readonly reasoning_effort?: string;
  readonly reasoning?: { readonly effort?: string };
  readonly usage?: { readonly include?: boolean };
  readonly provider?: { readonly require_parameters?: boolean };
  readonly input?: string | readonly string[];
  readonly dimensions?: number;
  readonly encoding_format?: string;
  readonly [key: string]: unknown;
}

/** One request the server received, in arrival order. */
export interface RecordedOpenAiRequest {
  readonly endpoint: 'chat' | 'embeddings' | 'other';
  readonly method: string;
  /** Path without the query, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON body (`{}` when the body was not a JSON object). */
  readonly body: OpenAiRequestBody;
  readonly rawBody: string;
  /** `x-permafrost-purpose` header sent by Permafrost's chat adapter (null when absent). */
  readonly purpose: string | null;
  /** Chat: all message contents joined by newlines; embeddings: the inputs joined. Handy for routing. */
  readonly text: string;
  /** 0-based position among all requests. */
  readonly index: number;
}

/** A scripted step: a reply, or a function of the request (routing by purpose, content, …). */
export type ScriptStep =
  | ScriptedReply
  | ((request: RecordedOpenAiRequest) => ScriptedReply | Promise<ScriptedReply>);

export interface ScriptedOpenAiServerOptions {
  /**
   * Answers requests for which no step is queued (return undefined for the default). Defaults:
   * chat → HTTP 500 "no scripted reply" (counted in `unscripted`); embeddings → deterministic vectors.
   */
  readonly handler?: (
    request: RecordedOpenAiRequest,
  ) => ScriptedReply | undefined | Promise<ScriptedReply | undefined>;
  /** Length of default vectors when the request sets no `dimensions` (default 16). */
  readonly embeddingDimensions?: number;
}

export interface ScriptedOpenAiServer {
  /** Base URL for clients, including `/v1`, e.g. `http://127.0.0.1:41234/v1`. */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: readonly RecordedOpenAiRequest[];
  readonly chatRequests: readonly RecordedOpenAiRequest[];
  readonly embeddingRequests: readonly RecordedOpenAiRequest[];
  /** Chat requests answered by the "no scripted reply" default. */
  readonly unscripted: number;
  /** Queues replies for the next `POST /v1/chat/completions` calls, consumed in order. */
  script(...steps: ScriptStep[]): ScriptedOpenAiServer;
  /** Queues replies for the next `POST /v1/embeddings` calls, consumed in order. */
  scriptEmbeddings(...steps: ScriptStep[]): ScriptedOpenAiServer;
  /** Steps still queued. */
  pending(): { readonly chat: number; readonly embeddings: number };
  /** Forgets recorded requests and queued steps. */
  reset(): void;
  /** Stops the server, dropping open connections and pending delays. */
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseBody(raw: string): OpenAiRequestBody {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as OpenAiRequestBody)
      : {};
  } catch {
    return {};
  }
}

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((p: { text?: unknown }) => (typeof p.text === 'string' ? p.text : '')).join('')
      : '';

function inputsOf(body: OpenAiRequestBody): string[] {
  if (typeof body.input === 'string') return [body.input];
  return Array.isArray(body.input) ? body.input.map(String) : [];
}

/**
 * Starts a real HTTP server on 127.0.0.1 (random port) speaking the OpenAI chat-completions and
 * embeddings wire format, answering each request from a script. Example:
 *
 * ```ts
 * const server = await startScriptedOpenAiServer();
 * server.script(OpenAiReply.rateLimited(1), OpenAiReply.json({ operations: [] }));
 * const llm = createOpenAiChatModel({ ...config, baseUrl: server.url });
 * // … server.chatRequests[0].body.response_format …
 * await server.close();
 * ```
 */
export async function startScriptedOpenAiServer(
  options: ScriptedOpenAiServerOptions = {},
): Promise<ScriptedOpenAiServer> {
  const requests: RecordedOpenAiRequest[] = [];
  const queues = { chat: [] as ScriptStep[], embeddings: [] as ScriptStep[] };
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let unscripted = 0;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  async function decide(request: RecordedOpenAiRequest): Promise<ScriptedReply> {
    if (request.endpoint === 'other') return { status: 404, errorMessage: `no route ${request.path}` };
    const step = queues[request.endpoint].shift();
    if (step !== undefined) return typeof step === 'function' ? step(request) : step;
    const handled = await options.handler?.(request);
    if (handled !== undefined) return handled;
    if (request.endpoint === 'embeddings') return {};
    unscripted += 1;
    return { status: 500, errorMessage: 'scripted server: no reply scripted for chat.completions' };
  }

  function send(res: ServerResponse, request: RecordedOpenAiRequest, reply: ScriptedReply): void {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...reply.headers };
    if (reply.retryAfter !== undefined) headers['retry-after'] = String(reply.retryAfter);
    const status = reply.status ?? 200;
    let payload: string;
    if (reply.rawBody !== undefined) payload = reply.rawBody;
    else if (status < 200 || status >= 300) payload = JSON.stringify(errorBody(status, reply.errorMessage));
    else if (request.endpoint === 'embeddings') {
      const dims = request.body.dimensions ?? options.embeddingDimensions ?? 16;
      payload = JSON.stringify(embeddingsBody(reply, request.body.model ?? '', inputsOf(request.body), dims));
    } else payload = JSON.stringify(chatCompletionBody(reply, request.body.model ?? '', request.text.length));
    res.writeHead(status, headers);
    res.end(payload);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const body = parseBody(rawBody);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const endpoint =
      req.method === 'POST' && path.endsWith('/chat/completions')
        ? 'chat'
        : req.method === 'POST' && path.endsWith('/embeddings')
          ? 'embeddings'
          : 'other';
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = String(v);
    const purpose = headers['x-permafrost-purpose'] ?? null;
    const text =
      endpoint === 'embeddings'
        ? inputsOf(body).join('\n')
        : (body.messages ?? []).map((m) => textOf(m.content)).join('\n');
    const request: RecordedOpenAiRequest = {
      endpoint,
      method: req.method ?? 'GET',
      path,
      headers,
      body,
      rawBody,
      purpose,
      text,
      index: requests.length,
    };
    requests.push(request);
    const reply = await decide(request);
    if (reply.delayMs !== undefined && reply.delayMs > 0) await wait(reply.delayMs);
    if (res.destroyed || req.socket.destroyed) return;
    if (reply.reset) {
      req.socket.destroy();
      return;
    }
    send(res, request, reply);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return;
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(errorBody(500, `scripted server failure: ${String(error)}`)));
    });
  });
  // Idle kept-alive connections are closed by the client, never by this server: a server closing
  // one while a busy client sends its next request on it loses that request (a reset the test did
  // not script). close() destroys whatever is still open.
  server.keepAliveTimeout = 0;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const api: ScriptedOpenAiServer = {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    get requests() {
      return requests;
    },
    get chatRequests() {
      return requests.filter((r) => r.endpoint === 'chat');
    },
    get embeddingRequests() {
      return requests.filter((r) => r.endpoint === 'embeddings');
    },
    get unscripted() {
      return unscripted;
    },
    script(...steps) {
      queues.chat.push(...steps);
      return api;
    },
    scriptEmbeddings(...steps) {
      queues.embeddings.push(...steps);
      return api;
    },
    pending: () => ({ chat: queues.chat.length, embeddings: queues.embeddings.length }),
    reset() {
      requests.length = 0;
      queues.chat.length = 0;
      queues.embeddings.length = 0;
      unscripted = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        for (const s of sockets) s.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return api;
}

/** One content part of an assistant message (some providers answer with an array of parts). */
export interface ContentPart {
  readonly type: string;
  readonly text?: string;
}

/**
 * One scripted answer of the loopback OpenAI server. Every field is optional and they combine:
 * `{ delayMs: 500, status: 503, retryAfter: 1 }` waits, then answers 503 with `retry-after: 1`.
 */
export interface ScriptedReply {
  /** Chat: the assistant message content (default `''`). */
  readonly content?: string | readonly ContentPart[] | null;
  /** Chat: content = `JSON.stringify(json)`. */
  readonly json?: unknown;
  /**
   * Embeddings: the vectors, sent as given (so a wrong count can be scripted). Default: one
   * deterministic, unnormalised vector per input (`defaultEmbedding`).
   */
  readonly vectors?: readonly (readonly number[])[];
  /** Embeddings: send `data` in reverse order (clients must sort by `index`). */
  readonly reverseOrder?: boolean;
  /** HTTP status (default 200). Non-2xx answers carry an OpenAI-style `{error: {message, type}}` body. */
  readonly status?: number;
  /** `error.message` of a non-2xx answer. */
  readonly errorMessage?: string;
  /** Sets the `retry-after` header (seconds, or an HTTP date). */
  readonly retryAfter?: number | string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Wait this long before answering (longer than the client timeout simulates a timeout). */
  readonly delayMs?: number;
  /** Destroy the socket instead of answering (a connection reset), after `delayMs`. */
  readonly reset?: boolean;
  /** Send exactly this body with `content-type: application/json` (e.g. malformed JSON). */
  readonly rawBody?: string;
  /** Usage override; `null` omits `usage`. Defaults are ~chars/4 of the messages and the content. */
  readonly usage?: { readonly promptTokens?: number; readonly completionTokens?: number } | null;
  /** Sets `usage.cost` (OpenRouter-style provider-reported USD). */
  readonly cost?: number;
  /** `model` of the answer (default: the requested model). */
  readonly model?: string;
  readonly finishReason?: string;
  /** Chat: answer with `choices: []`. */
  readonly noChoices?: boolean;
}

/** Builders for common replies. */
export const OpenAiReply = {
  /** Assistant content `JSON.stringify(value)`. */
  json: (value: unknown, extra: ScriptedReply = {}): ScriptedReply => ({ ...extra, json: value }),
  /** Plain assistant text. */
  text: (content: string, extra: ScriptedReply = {}): ScriptedReply => ({ ...extra, content }),
  /** Assistant content as an array of `{type: 'text', text}` parts. */
  parts: (...texts: string[]): ScriptedReply => ({ content: texts.map((text) => ({ type: 'text', text })) }),
  /** An HTTP error with an OpenAI-style body. */
  error: (status: number, extra: ScriptedReply = {}): ScriptedReply => ({ ...extra, status }),
  /** 429 with `retry-after` (seconds). */
  rateLimited: (retryAfterSeconds?: number): ScriptedReply =>
    retryAfterSeconds === undefined ? { status: 429 } : { status: 429, retryAfter: retryAfterSeconds },
  /** Waits `ms` before sending `then` (default: an empty text reply). */
  delay: (ms: number, then: ScriptedReply = {}): ScriptedReply => ({ ...then, delayMs: ms }),
  /** Resets the connection. */
  reset: (): ScriptedReply => ({ reset: true }),
  /** A 200 whose body is not valid JSON. */
  malformed: (): ScriptedReply => ({ rawBody: '{"id": "chatcmpl-broken", "choices": [' }),
  /** A 200 with `choices: []`. */
  emptyChoices: (): ScriptedReply => ({ noChoices: true }),
  /** Embeddings answer with these vectors. */
  vectors: (vectors: readonly (readonly number[])[], extra: ScriptedReply = {}): ScriptedReply => ({
    ...extra,
    vectors,
  }),
} as const;

/** Rough token count of `chars` characters (chars / 4, at least 1). */
export const estimateTokens = (chars: number): number => Math.max(1, Math.ceil(chars / 4));

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Deterministic, deliberately unnormalised vector of a text (values in [-3, 3)). */
export function defaultEmbedding(text: string, dimensions: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < dimensions; i++) out.push((fnv1a(`${i}:${text}`) / 2 ** 32) * 6 - 3);
  return out;
}

export function replyContent(reply: ScriptedReply): string | readonly ContentPart[] | null {
  if (reply.json !== undefined) return JSON.stringify(reply.json);
  return reply.content === undefined ? '' : reply.content;
}

function contentLength(content: string | readonly ContentPart[] | null): number {
  if (content === null) return 0;
  if (typeof content === 'string') return content.length;
  return content.reduce((n, p) => n + (p.text?.length ?? 0), 0);
}

let sequence = 0;

export function chatCompletionBody(reply: ScriptedReply, model: string, promptChars: number): unknown {
  const content = replyContent(reply);
  const promptTokens = reply.usage?.promptTokens ?? estimateTokens(promptChars);
  const completionTokens = reply.usage?.completionTokens ?? estimateTokens(contentLength(content));
  return {
    id: `chatcmpl-${++sequence}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: reply.model ?? model,
    choices: reply.noChoices
      ? []
      : [
          {
            index: 0,
            message: { role: 'assistant', content, refusal: null },
            finish_reason: reply.finishReason ?? 'stop',
            logprobs: null,
          },
        ],
    ...(reply.usage === null
      ? {}
      : {
          usage: {
            prompt_tokens: promptTokens,
            completion_tokens: completionTokens,
            total_tokens: promptTokens + completionTokens,
            ...(reply.cost !== undefined ? { cost: reply.cost } : {}),
          },
        }),
  };
}

export function embeddingsBody(
  reply: ScriptedReply,
  model: string,
  inputs: readonly string[],
  dimensions: number,
): unknown {
  const vectors = reply.vectors ?? inputs.map((text) => defaultEmbedding(text, dimensions));
  const data = vectors.map((embedding, index) => ({ object: 'embedding', index, embedding }));
  if (reply.reverseOrder) data.reverse();
  const promptTokens = reply.usage?.promptTokens ?? estimateTokens(inputs.join(' ').length);
  return {
    object: 'list',
    data,
    model: reply.model ?? model,
    ...(reply.usage === null ? {} : { usage: { prompt_tokens: promptTokens, total_tokens: promptTokens } }),
  };
}

export function errorBody(status: number, message: string | undefined): unknown {
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return {
    error: { message: message ?? `scripted HTTP ${status}`, type, param: null, code: null },
  };
}

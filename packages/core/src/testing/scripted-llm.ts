import type { ChatLLM, ChatRequest, ChatResponse } from '../ports/chat-llm.js';

export type ScriptedLlmReply =
  | string
  | Error
  | ((request: ChatRequest) => string | Error | Promise<string | Error>);

export interface ScriptedLlm extends ChatLLM {
  /** Every request received, in order. */
  readonly calls: ChatRequest[];
  /** Queue replies for a purpose (consumed in order; the last one repeats). */
  script(purpose: string, ...replies: ScriptedLlmReply[]): void;
  callsFor(purpose: string): ChatRequest[];
}

/**
 * A ChatLLM for tests: replies per purpose from a script (text, an Error to throw, or a function of
 * the request). Purposes without a script answer `fallback(request)` (default: an empty JSON object
 * shape that fits extraction and reconcile).
 */
export function createScriptedLlm(
  options: { model?: string; fallback?: (request: ChatRequest) => string; promptTokens?: number } = {},
): ScriptedLlm {
  const queues = new Map<string, ScriptedLlmReply[]>();
  const calls: ChatRequest[] = [];
  const fallback =
    options.fallback ??
    ((r: ChatRequest) =>
      r.purpose === 'reconcile' ? '{"decisions":[]}' : r.purpose === 'summarize' ? '' : '{"operations":[]}');
  return {
    model: options.model ?? 'scripted',
    calls,
    script(purpose, ...replies) {
      queues.set(purpose, [...(queues.get(purpose) ?? []), ...replies]);
    },
    callsFor(purpose) {
      return calls.filter((c) => c.purpose === purpose);
    },
    async complete(request: ChatRequest): Promise<ChatResponse> {
      calls.push(request);
      const queue = queues.get(String(request.purpose));
      const next = queue && queue.length > 0 ? (queue.length > 1 ? queue.shift() : queue[0]) : undefined;
      let reply: string | Error =
        next === undefined ? fallback(request) : typeof next === 'function' ? await next(request) : next;
      if (reply instanceof Error) throw reply;
      reply = String(reply);
      return {
        text: reply,
        model: options.model ?? 'scripted',
        promptTokens: options.promptTokens ?? Math.ceil(JSON.stringify(request.messages).length / 4),
        completionTokens: Math.ceil(reply.length / 4),
        costUsd: null,
      };
    },
  };
}

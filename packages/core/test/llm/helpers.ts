import type { OpenAiChatConfig } from '../../src/adapters/llm/index.js';
import type { ChatRequest } from '../../src/ports/chat-llm.js';

/** Endpoint config for the loopback server (fast timeout, two retries). */
export function chatConfig(baseUrl: string, over: Partial<OpenAiChatConfig> = {}): OpenAiChatConfig {
  return {
    baseUrl,
    apiKey: 'sk-test',
    model: 'test-model',
    smallModel: null,
    reasoningEffort: null,
    temperature: 0,
    structuredOutputs: 'strict',
    maxTokensKey: 'max_tokens',
    timeoutMs: 2000,
    maxRetries: 2,
    ...over,
  };
}

/** An instant sleep that records the delays it was asked for. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; delays: number[] } {
  const delays: number[] = [];
  return { delays, sleep: async (ms) => void delays.push(ms) };
}

export const SCHEMA = {
  type: 'object',
  properties: { ok: { type: 'boolean' } },
  required: ['ok'],
  additionalProperties: false,
} as const;

export function jsonSchemaRequest(over: Partial<ChatRequest> = {}): ChatRequest {
  return {
    messages: [
      { role: 'system', content: 'You extract facts.' },
      { role: 'user', content: 'Alice loves climbing.' },
    ],
    purpose: 'extraction',
    maxTokens: 500,
    responseFormat: { type: 'json_schema', name: 'extraction_output', schema: SCHEMA },
    ...over,
  };
}

export function textRequest(over: Partial<ChatRequest> = {}): ChatRequest {
  return {
    messages: [{ role: 'user', content: 'Summarise Alice.' }],
    purpose: 'summarize',
    maxTokens: 200,
    responseFormat: { type: 'text' },
    ...over,
  };
}

/** A fetch that sends every request to the loopback server whatever host the URL names. */
export function loopbackFetch(port: number): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    url.hostname = '127.0.0.1';
    url.port = String(port);
    return fetch(url, init);
  };
}

import { InvalidResponseError } from './retry-policy.js';

export interface ParsedChatCompletion {
  readonly text: string;
  readonly model: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly costUsd: number | null;
}

interface RawCompletion {
  readonly choices?: unknown;
  readonly model?: unknown;
  readonly usage?: unknown;
}
interface RawChoice {
  readonly message?: unknown;
}
interface RawMessage {
  readonly content?: unknown;
}
interface RawPart {
  readonly type?: unknown;
  readonly text?: unknown;
}
interface RawUsage {
  readonly prompt_tokens?: unknown;
  readonly completion_tokens?: unknown;
  /** OpenRouter: USD charged for the call. */
  readonly cost?: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

/** `message.content` as text: a string, or the concatenated `text` of an array of content parts. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let out = '';
  for (const part of content) {
    if (typeof part === 'string') out += part;
    else if (isRecord(part)) {
      const p = part as RawPart;
      if (typeof p.text === 'string' && (p.type ?? 'text') === 'text') out += p.text;
    }
  }
  return out;
}

/**
 * Reads a chat completion body defensively (OpenAI-compatible servers vary). A body that is not an
 * object or has no choices is an InvalidResponseError (retried, then LLM_UNAVAILABLE).
 */
export function parseChatCompletion(raw: unknown, requestedModel: string): ParsedChatCompletion {
  if (!isRecord(raw)) throw new InvalidResponseError('chat completion body is not a JSON object');
  const body = raw as RawCompletion;
  const first: unknown = Array.isArray(body.choices) ? body.choices[0] : undefined;
  if (!isRecord(first)) throw new InvalidResponseError('chat completion has no choices');
  const message = (first as RawChoice).message;
  const text = isRecord(message) ? contentText((message as RawMessage).content) : '';
  const usage: RawUsage = isRecord(body.usage) ? body.usage : {};
  const cost = usage.cost;
  return {
    text,
    model: typeof body.model === 'string' && body.model !== '' ? body.model : requestedModel,
    promptTokens: count(usage.prompt_tokens),
    completionTokens: count(usage.completion_tokens),
    costUsd: typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : null,
  };
}

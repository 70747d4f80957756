import type { MeterPurpose } from '../model/enums.js';

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** A JSON Schema object (draft 2020-12 subset accepted by OpenAI strict mode). */
export type JsonSchema = Readonly<Record<string, unknown>>;

export type ResponseFormat =
  | { readonly type: 'text' }
  | { readonly type: 'json_object' }
  | { readonly type: 'json_schema'; readonly name: string; readonly schema: JsonSchema };

/**
 * Structured input for the task, next to the rendered prompt. Remote models ignore it; offline
 * implementations (the heuristic extractor, scripted test models) read it instead of parsing prose.
 */
export type ChatTask =
  | { readonly kind: 'extraction'; readonly input: unknown }
  | { readonly kind: 'reconcile'; readonly input: unknown }
  | { readonly kind: 'summarize'; readonly input: unknown }
  | { readonly kind: 'classify_command'; readonly input: unknown }
  | { readonly kind: 'repair'; readonly input: unknown };

export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  readonly purpose: MeterPurpose;
  readonly maxTokens: number;
  readonly responseFormat: ResponseFormat;
  /** Guild charged for the tokens, when the call is on behalf of one. */
  readonly guildId?: string;
  readonly task?: ChatTask;
  readonly signal?: AbortSignal;
}

export interface ChatResponse {
  readonly text: string;
  readonly model: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Provider-reported cost in USD when available. */
  readonly costUsd: number | null;
}

/** A chat-completion model. */
export interface ChatLLM {
  readonly model: string;
  complete(request: ChatRequest): Promise<ChatResponse>;
}

import type OpenAI from 'openai';
import type { LlmEndpointConfig } from '../../config/schema.js';
import { ErrorCode } from '../../errors/error-codes.js';
import { MemoryError } from '../../errors/memory-error.js';
import type { ChatLLM, ChatRequest, ChatResponse } from '../../ports/chat-llm.js';
import type { Logger } from '../../ports/logger.js';
import { capabilityMessage } from './capability-message.js';
import { buildChatBody, type ChatBodySettings } from './chat-request-body.js';
import { parseChatCompletion } from './chat-response.js';
import { createOpenAiClient, isOpenRouterUrl } from './openai-client.js';
import {
  type AttemptFailure,
  defaultSleep,
  describeFailure,
  type Sleep,
  withRetries,
} from './retry-policy.js';

/** The endpoint fields the chat adapter reads (a full `LlmEndpointConfig` fits). */
export type OpenAiChatConfig = Pick<
  LlmEndpointConfig,
  | 'baseUrl'
  | 'apiKey'
  | 'model'
  | 'reasoningEffort'
  | 'temperature'
  | 'structuredOutputs'
  | 'maxTokensKey'
  | 'timeoutMs'
  | 'maxRetries'
> & { readonly smallModel?: string | null };

export interface OpenAiChatModelOptions {
  /** Model name overriding `config.model` (used for the small model). */
  readonly model?: string;
  /**
   * `auto` (default): OpenRouter extras when the base URL host contains `openrouter.ai`;
   * `openrouter` / `openai`: force them on / off (e.g. behind a proxy).
   */
  readonly provider?: 'auto' | 'openrouter' | 'openai';
  /** Custom fetch passed to the SDK (proxies, tests). */
  readonly fetch?: typeof fetch;
  /** Backoff sleep (tests inject an instant one). */
  readonly sleep?: Sleep;
  /** Jitter source in [0, 1) (default Math.random). */
  readonly random?: () => number;
  readonly logger?: Logger;
}

/** Request header carrying `ChatRequest.purpose` (a task label, never content); servers ignore it. */
export const PURPOSE_HEADER = 'x-permafrost-purpose';

class OpenAiChatModel implements ChatLLM {
  readonly model: string;
  readonly #client: OpenAI;
  readonly #settings: ChatBodySettings;
  readonly #maxRetries: number;
  readonly #sleep: Sleep;
  readonly #random: () => number;
  readonly #logger: Logger | undefined;

  constructor(config: OpenAiChatConfig, options: OpenAiChatModelOptions) {
    this.model = options.model ?? config.model;
    this.#client = createOpenAiClient({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      timeoutMs: config.timeoutMs,
      fetch: options.fetch,
    });
    const provider = options.provider ?? 'auto';
    this.#settings = {
      model: this.model,
      temperature: config.temperature,
      maxTokensKey: config.maxTokensKey,
      structuredOutputs: config.structuredOutputs,
      reasoningEffort: config.reasoningEffort,
      openRouter: provider === 'openrouter' || (provider === 'auto' && isOpenRouterUrl(config.baseUrl)),
    };
    this.#maxRetries = config.maxRetries;
    this.#sleep = options.sleep ?? defaultSleep;
    this.#random = options.random ?? Math.random;
    this.#logger = options.logger;
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const body = buildChatBody(this.#settings, request);
    const signal = request.signal;
    const settings = this.#settings;
    return withRetries(
      {
        operation: 'llm',
        model: this.model,
        maxRetries: this.#maxRetries,
        sleep: this.#sleep,
        random: this.#random,
        logger: this.#logger,
        signal,
        onCapability: (status, cause) =>
          new MemoryError(
            ErrorCode.LLM_CAPABILITY,
            capabilityMessage({ ...settings, status, requestFormat: request.responseFormat.type }, cause),
            { cause },
          ),
        onUnavailable: (failure, attempts, cause) =>
          new MemoryError(ErrorCode.LLM_UNAVAILABLE, unavailableMessage(this.model, failure, attempts), {
            cause,
          }),
      },
      async () => {
        const raw: unknown = await this.#client.chat.completions.create(
          body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
          { ...(signal ? { signal } : {}), headers: { [PURPOSE_HEADER]: request.purpose } },
        );
        return parseChatCompletion(raw, this.model);
      },
    );
  }
}

function unavailableMessage(model: string, failure: AttemptFailure, attempts: number): string {
  const auth = failure.kind === 'fatal' && (failure.status === 401 || failure.status === 403);
  const detail = auth ? '; check the API key' : '';
  return `LLM endpoint unavailable for model "${model}" after ${attempts} attempt(s) (last failure: ${describeFailure(failure)}${detail})`;
}

/**
 * A `ChatLLM` over any OpenAI-compatible `/chat/completions` endpoint (OpenAI, OpenRouter, Ollama,
 * llama.cpp, vLLM, Azure), on the official SDK with Permafrost's own retry policy.
 */
export function createOpenAiChatModel(
  config: OpenAiChatConfig,
  options: OpenAiChatModelOptions = {},
): ChatLLM {
  return new OpenAiChatModel(config, options);
}

/**
 * The main model and the small model of one endpoint. `small` uses `config.smallModel` when set;
 * otherwise it is the very same instance as `main`.
 */
export function createOpenAiChatModels(
  config: OpenAiChatConfig,
  options: Omit<OpenAiChatModelOptions, 'model'> = {},
): { readonly main: ChatLLM; readonly small: ChatLLM } {
  const main = new OpenAiChatModel(config, options);
  const smallModel = config.smallModel ?? null;
  const small = smallModel === null ? main : new OpenAiChatModel(config, { ...options, model: smallModel });
  return { main, small };
}

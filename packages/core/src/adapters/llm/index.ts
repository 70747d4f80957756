export { toStrictJsonSchema } from '../../extraction/strict-json-schema.js';
export {
  type CallGuardOptions,
  type CallOutcomes,
  DEFAULT_CALL_DEADLINE_MS,
  type GuardedChatLLM,
  guardChatModel,
  guardEmbedder,
} from './call-guard.js';
export { capabilityMessage, embeddingCapabilityMessage } from './capability-message.js';
export {
  createMeter,
  type MeterOptions,
  type MeterTotals,
  type PricedMeter,
  type PricedMeterSnapshot,
} from './meter.js';
export { meteredChatModel, type UsageListener } from './metered-chat-model.js';
export {
  createOpenAiChatModel,
  createOpenAiChatModels,
  type OpenAiChatConfig,
  type OpenAiChatModelOptions,
  PURPOSE_HEADER,
} from './openai-chat-model.js';
export { isOpenRouterUrl } from './openai-client.js';
export {
  createOpenAiEmbedder,
  EMBEDDING_BATCH_SIZE,
  type OpenAiEmbedderOptions,
  type OpenAiEmbeddingsConfig,
} from './openai-embedder.js';
export { DEFAULT_PRICES, findPrice, type ModelPrice, type PriceTable, priceCall } from './price-table.js';
export {
  BACKOFF_BASE_MS,
  BACKOFF_MAX_MS,
  CAPABILITY_STATUSES,
  RETRY_AFTER_CAP_MS,
  RETRYABLE_STATUSES,
  retryDelayMs,
  type Sleep,
} from './retry-policy.js';

export {
  type PromptLine,
  type ReadPrompt,
  readExtractionPrompt,
} from './extraction-prompt-reader.js';
export { createFakeEmbedder, type FakeEmbedder, type FakeEmbedderOptions } from './fake-embedder.js';
export { FixedClock, sequentialIds } from './fixed-clock.js';
export { type AroundRoleCall, interceptStore } from './intercept-store.js';
export { makeFact } from './make-fact.js';
export {
  type ContentPart,
  defaultEmbedding,
  estimateTokens,
  OpenAiReply,
  type ScriptedReply,
} from './openai-replies.js';
export {
  type OpenAiRequestBody,
  type RecordedOpenAiRequest,
  type ScriptedOpenAiServer,
  type ScriptedOpenAiServerOptions,
  type ScriptStep,
  startScriptedOpenAiServer,
} from './openai-server.js';
export { createScriptedLlm, type ScriptedLlm, type ScriptedLlmReply } from './scripted-llm.js';
export { type StoreWaveCount, StoreWaves } from './store-waves.js';

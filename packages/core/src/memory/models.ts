import type { MemoryConfig } from '../config/schema.js';
import { createHashingEmbedder } from '../embedding/hashing-embedder.js';
import { createHeuristicLlm } from '../heuristic/index.js';
import {
  createMeter,
  createOpenAiChatModels,
  createOpenAiEmbedder,
  meteredChatModel,
  type PricedMeter,
} from '../llm/index.js';
import type { ChatLLM } from '../ports/chat-llm.js';
import type { Embedder } from '../ports/embedder.js';
import { importBackend } from '../runtime/store-registry.js';
import type { MemoryOverrides } from './overrides.js';

export interface Models {
  readonly llm: ChatLLM | null;
  readonly smallLlm: ChatLLM | null;
  readonly meter: PricedMeter;
}

/**
 * The extraction model and the small model (reconcile, digests), both metered. Overrides win;
 * `llm: "heuristic"` is the offline rule-based extractor; `openai://…` any compatible endpoint.
 */
export async function resolveModels(config: MemoryConfig, overrides: MemoryOverrides): Promise<Models> {
  const meter = createMeter({ prices: config.budgets.prices });
  let main: ChatLLM | null;
  let small: ChatLLM | null | undefined;
  if (overrides.llm !== undefined) main = overrides.llm;
  else if (config.llm === null) main = null;
  else if (config.llm.kind === 'heuristic') main = createHeuristicLlm();
  else {
    const pair = createOpenAiChatModels(config.llm, overrides.logger ? { logger: overrides.logger } : {});
    main = pair.main;
    small = pair.small;
  }
  const smallModel = overrides.smallLlm !== undefined ? overrides.smallLlm : (small ?? main);
  const wrap = (m: ChatLLM | null) => (m ? meteredChatModel(m, meter) : null);
  const llm = wrap(main);
  return { llm, smallLlm: smallModel === main ? llm : wrap(smallModel), meter };
}

interface LocalEmbeddingsModule {
  createEmbedderFromConfig(options: { modelPath: string | null; model: string }): Embedder;
}

/** The embedder named by `embeddings`: hashing (default), a local model folder, or an endpoint. */
export async function resolveEmbedder(config: MemoryConfig, _overrides: MemoryOverrides): Promise<Embedder> {
  const e = config.embeddings;
  switch (e.provider) {
    case 'hashing':
      return createHashingEmbedder({ dimensions: e.dimensions });
    case 'openai':
      return createOpenAiEmbedder(e);
    case 'local': {
      const mod = (await importBackend(
        '@permafrost/embeddings-local',
        'local embeddings',
      )) as LocalEmbeddingsModule;
      return mod.createEmbedderFromConfig({ modelPath: e.modelPath, model: e.model });
    }
  }
}

/** JSON mode for structured calls: json_object for endpoints configured without strict schemas. */
export function structuredModeOf(config: MemoryConfig): 'strict' | 'json_object' {
  return config.llm !== null && config.llm.kind === 'openai' ? config.llm.structuredOutputs : 'strict';
}

import { createHashingEmbedder } from '../adapters/embedding/hashing-embedder.js';
import { createHeuristicLlm } from '../adapters/heuristic/index.js';
import {
  type CallOutcomes,
  DEFAULT_CALL_DEADLINE_MS,
  type GuardedChatLLM,
  guardChatModel,
} from '../adapters/llm/call-guard.js';
import {
  createMeter,
  createOpenAiChatModels,
  createOpenAiEmbedder,
  meteredChatModel,
  type PricedMeter,
} from '../adapters/llm/index.js';
import type { MemoryConfig } from '../config/schema.js';
import type { ChatLLM } from '../ports/chat-llm.js';
import type { Embedder } from '../ports/embedder.js';
import type { MemoryOverrides } from './overrides.js';
import { importBackend } from './store-registry.js';

export interface Models {
  readonly llm: ChatLLM | null;
  readonly smallLlm: ChatLLM | null;
  readonly meter: PricedMeter;
  /** Failures in a row of the extraction model (and of the small model), for health reports. */
  readonly outcomes: () => CallOutcomes;
}

/**
 * The extraction model and the small model (reconcile, digests), both metered and guarded (an
 * overall deadline per call, `llm.deadlineMs` for endpoints; aborted when `lifetime` ends). Overrides
 * win; `llm: "heuristic"` is the offline rule-based extractor; `openai://…` any compatible endpoint.
 */
export async function resolveModels(
  config: MemoryConfig,
  overrides: MemoryOverrides,
  lifetime: AbortSignal = new AbortController().signal,
): Promise<Models> {
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
  const deadlineMs =
    config.llm !== null && config.llm.kind === 'openai' ? config.llm.deadlineMs : DEFAULT_CALL_DEADLINE_MS;
  const guarded: GuardedChatLLM[] = [];
  const wrap = (m: ChatLLM | null) => {
    if (!m) return null;
    const g = guardChatModel(m, { deadlineMs, lifetime });
    guarded.push(g);
    return meteredChatModel(g, meter);
  };
  const llm = wrap(main);
  const smallLlm = smallModel === main ? llm : wrap(smallModel);
  const outcomes = (): CallOutcomes => {
    const worst = guarded.reduce<CallOutcomes>(
      (acc, g) => (g.outcomes.consecutiveFailures > acc.consecutiveFailures ? g.outcomes : acc),
      { consecutiveFailures: 0, lastErrorCode: null },
    );
    return worst;
  };
  return { llm, smallLlm, meter, outcomes };
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

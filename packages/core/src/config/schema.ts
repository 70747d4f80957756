import { z } from 'zod';
import { forwardUrlIssues } from './config-issues.js';
import {
  accessGroup,
  batchingGroup,
  budgetsGroup,
  contextGroup,
  conversationGroup,
  extractionGroup,
  int,
  lifecycleGroup,
  observeGroup,
  privacyGroup,
  retrievalGroup,
  workersGroup,
} from './groups.js';
import {
  DEFAULT_STORAGE,
  parseOpenAiUrl,
  parseStorageUrl,
  REASONING_EFFORTS,
  type StorageSpec,
} from './url-specs.js';

/** Overall deadline of one model call when the configuration names none (endpoints set `llm.deadlineMs`). */
export const DEFAULT_CALL_DEADLINE_MS = 120_000;

type Env = Readonly<Record<string, string | undefined>>;

const llmObject = z
  .object({
    baseUrl: z.string().url(),
    apiKey: z.string().default(''),
    model: z.string().min(1),
    smallModel: z.string().min(1).nullable().default(null),
    reasoningEffort: z.enum(REASONING_EFFORTS).nullable().default(null),
    temperature: z.number().min(0).max(2).nullable().default(0),
    structuredOutputs: z.enum(['strict', 'json_object']).default('strict'),
    maxTokensKey: z.enum(['max_tokens', 'max_completion_tokens']).default('max_tokens'),
    timeoutMs: int(100, 600_000, 60_000),
    maxRetries: int(0, 10, 2),
    /** Longest one model call may take, retries and backoff included (then LLM_UNAVAILABLE). */
    deadlineMs: int(1000, 3_600_000, DEFAULT_CALL_DEADLINE_MS),
  })
  .strict();
export type LlmEndpointConfig = z.output<typeof llmObject> & { readonly kind: 'openai' };
export type LlmConfig = null | { readonly kind: 'heuristic' } | LlmEndpointConfig;

const embeddingsObject = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('hashing'), dimensions: int(32, 4096, 256) }).strict(),
  z
    .object({
      provider: z.literal('local'),
      modelPath: z.string().min(1).nullable().default(null),
      model: z.string().default('all-MiniLM-L6-v2'),
    })
    .strict(),
  z
    .object({
      provider: z.literal('openai'),
      baseUrl: z.string().url(),
      apiKey: z.string().default(''),
      model: z.string().min(1).default('text-embedding-3-small'),
      dimensions: z.number().int().min(8).max(8192).nullable().default(null),
      timeoutMs: int(100, 600_000, 30_000),
      maxRetries: int(0, 10, 2),
    })
    .strict(),
]);
export type EmbeddingsConfig = z.output<typeof embeddingsObject> & { readonly cacheMaxEntries: number };

export function makeConfigSchema(env: Env) {
  const storage = z.string().transform((raw, ctx): StorageSpec => parseStorageUrl(raw, ctx));

  const llm = z.union([
    z.null(),
    z.literal('heuristic').transform(() => ({ kind: 'heuristic' as const })),
    z.string().transform((raw, ctx) => {
      const fields = parseOpenAiUrl(raw, env, ctx);
      if (!fields) return z.NEVER;
      const parsed = llmObject.safeParse(fields, { reportInput: true });
      if (!parsed.success) {
        forwardUrlIssues(parsed.error.issues, ctx);
        return z.NEVER;
      }
      return { kind: 'openai' as const, ...parsed.data };
    }),
    llmObject.transform((o) => ({ kind: 'openai' as const, ...o })),
  ]);

  const embeddings = z.union([
    z.literal('hashing').transform(() => ({ provider: 'hashing' as const, dimensions: 256 })),
    z
      .string()
      .regex(/^local(:.+)?$/)
      .transform((s) => ({
        provider: 'local' as const,
        modelPath: s.startsWith('local:') ? s.slice(6) : null,
        model: 'all-MiniLM-L6-v2',
      })),
    z
      .string()
      .startsWith('openai://')
      .transform((raw, ctx) => {
        const fields = parseOpenAiUrl(raw, env, ctx) as
          | (ReturnType<typeof parseOpenAiUrl> & { dimensions?: number })
          | null;
        if (!fields) return z.NEVER;
        const parsed = embeddingsObject.safeParse(
          {
            provider: 'openai',
            baseUrl: fields.baseUrl,
            apiKey: fields.apiKey,
            ...(fields.model ? { model: fields.model } : {}),
            ...(fields.dimensions !== undefined ? { dimensions: fields.dimensions } : {}),
          },
          { reportInput: true },
        );
        if (!parsed.success) {
          forwardUrlIssues(parsed.error.issues, ctx);
          return z.NEVER;
        }
        return parsed.data;
      }),
    embeddingsObject,
  ]);

  return z
    .object({
      /** `./permafrost.db` in the working directory (see DEFAULT_STORAGE). */
      storage: storage.prefault(DEFAULT_STORAGE),
      llm: llm.prefault('heuristic'),
      embeddings: embeddings.prefault('hashing'),
      /** Bytes of the LRU embedding cache wrapped around every embedder (0: off); default 32 MiB. */
      embeddingCacheBytes: int(0, 16 * 1024 ** 3, 32 * 1024 ** 2),
      observe: observeGroup.default(observeGroup.parse({})),
      batching: batchingGroup.default(batchingGroup.parse({})),
      workers: workersGroup.default(workersGroup.parse({})),
      extraction: extractionGroup.default(extractionGroup.parse({})),
      lifecycle: lifecycleGroup.default(lifecycleGroup.parse({})),
      retrieval: retrievalGroup.default(retrievalGroup.parse({})),
      budgets: budgetsGroup.default(budgetsGroup.parse({})),
      privacy: privacyGroup.default(privacyGroup.parse({})),
      access: accessGroup.default(accessGroup.parse({})),
      conversation: conversationGroup.default(conversationGroup.parse({})),
      context: contextGroup.default(contextGroup.parse({})),
    })
    .strict();
}

export type MemoryConfigInput = z.input<ReturnType<typeof makeConfigSchema>>;
type Output = z.output<ReturnType<typeof makeConfigSchema>>;

type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** The validated, frozen configuration. */
export type MemoryConfig = DeepReadonly<Output>;

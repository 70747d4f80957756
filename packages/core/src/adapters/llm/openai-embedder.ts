import type OpenAI from 'openai';
import type { EmbeddingsConfig } from '../../config/schema.js';
import { ErrorCode } from '../../errors/error-codes.js';
import { MemoryError } from '../../errors/memory-error.js';
import type { Embedder } from '../../ports/embedder.js';
import type { Logger } from '../../ports/logger.js';
import { embeddingCapabilityMessage } from './capability-message.js';
import { createOpenAiClient } from './openai-client.js';
import {
  defaultSleep,
  describeFailure,
  InvalidResponseError,
  type Sleep,
  withRetries,
} from './retry-policy.js';

/** The `openai` embeddings config fields the adapter reads. */
export type OpenAiEmbeddingsConfig = Pick<
  Extract<EmbeddingsConfig, { provider: 'openai' }>,
  'baseUrl' | 'apiKey' | 'model' | 'dimensions' | 'timeoutMs' | 'maxRetries'
>;

/** Inputs per `POST /embeddings` request. */
export const EMBEDDING_BATCH_SIZE = 64;

export interface OpenAiEmbedderOptions {
  readonly fetch?: typeof fetch;
  readonly sleep?: Sleep;
  readonly random?: () => number;
  readonly logger?: Logger;
  /** Inputs per request (default 64). */
  readonly batchSize?: number;
}

interface RawEmbeddingItem {
  readonly index?: unknown;
  readonly embedding?: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function shapeError(model: string, what: string): MemoryError {
  return new MemoryError(ErrorCode.EMBEDDING_FAILED, `Embedding endpoint for model "${model}" ${what}`);
}

/** One `data[i].embedding`: a number array, or base64 little-endian float32 (some servers ignore the format). */
function toVector(value: unknown): Float32Array | null {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'base64');
    if (bytes.length === 0 || bytes.length % 4 !== 0) return null;
    const out = new Float32Array(bytes.length / 4);
    for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
    return out;
  }
  if (!Array.isArray(value) || value.length === 0) return null;
  if (!value.every((x) => typeof x === 'number' && Number.isFinite(x))) return null;
  return Float32Array.from(value as number[]);
}

function normalize(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) * inv;
  }
  return v;
}

/** Vectors of one response in input order (by `index`), validated; malformed bodies are retried. */
function parseEmbeddings(raw: unknown, expected: number): Float32Array[] {
  const data = isRecord(raw) ? (raw as { readonly data?: unknown }).data : undefined;
  if (!Array.isArray(data) || data.length !== expected)
    throw new InvalidResponseError('embeddings response has the wrong number of vectors');
  const out: (Float32Array | undefined)[] = new Array(expected);
  data.forEach((value: unknown, position) => {
    const item: RawEmbeddingItem = isRecord(value) ? value : {};
    const index = typeof item.index === 'number' ? item.index : position;
    const vector = toVector(item.embedding);
    if (vector === null || !Number.isInteger(index) || index < 0 || index >= expected || out[index])
      throw new InvalidResponseError('embeddings response has a malformed item');
    out[index] = vector;
  });
  return out as Float32Array[];
}

class OpenAiEmbedder implements Embedder {
  readonly #client: OpenAI;
  readonly #config: OpenAiEmbeddingsConfig;
  readonly #options: OpenAiEmbedderOptions;
  readonly #batchSize: number;
  #dimensions: number | undefined;

  constructor(config: OpenAiEmbeddingsConfig, options: OpenAiEmbedderOptions) {
    this.#config = config;
    this.#options = options;
    this.#batchSize = Math.max(1, Math.floor(options.batchSize ?? EMBEDDING_BATCH_SIZE));
    this.#dimensions = config.dimensions ?? undefined;
    this.#client = createOpenAiClient({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      timeoutMs: config.timeoutMs,
      fetch: options.fetch,
    });
  }

  /** `openai:<model>:<dims>`; `<dims>` is `auto` until the first response when not configured. */
  get id(): string {
    return `openai:${this.#config.model}:${this.#dimensions ?? 'auto'}`;
  }

  get dimensions(): number | undefined {
    return this.#dimensions;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.#batchSize) {
      const batch = texts.slice(start, start + this.#batchSize);
      for (const vector of await this.#embedBatch(batch)) out.push(vector);
    }
    return out;
  }

  async close(): Promise<void> {}

  async #embedBatch(batch: readonly string[]): Promise<Float32Array[]> {
    const { model, dimensions, maxRetries } = this.#config;
    const vectors = await withRetries(
      {
        operation: 'embeddings',
        model,
        maxRetries,
        sleep: this.#options.sleep ?? defaultSleep,
        random: this.#options.random ?? Math.random,
        logger: this.#options.logger,
        signal: undefined,
        onCapability: (status, cause) =>
          new MemoryError(ErrorCode.EMBEDDING_FAILED, embeddingCapabilityMessage(model, status, dimensions), {
            cause,
          }),
        onUnavailable: (failure, attempts, cause) =>
          new MemoryError(
            ErrorCode.EMBEDDING_FAILED,
            `Embedding endpoint unavailable for model "${model}" after ${attempts} attempt(s) (last failure: ${describeFailure(failure)})`,
            { cause },
          ),
      },
      async () => {
        const raw: unknown = await this.#client.embeddings.create({
          model,
          // Empty strings are rejected by OpenAI with a 400; a space embeds as "nothing".
          input: batch.map((t) => (t === '' ? ' ' : t)),
          encoding_format: 'float',
          ...(dimensions !== null ? { dimensions } : {}),
        });
        return parseEmbeddings(raw, batch.length);
      },
    );
    for (const v of vectors) {
      if (this.#dimensions === undefined) this.#dimensions = v.length;
      else if (v.length !== this.#dimensions)
        throw shapeError(model, `returned ${v.length}-dimensional vectors, expected ${this.#dimensions}`);
      normalize(v);
    }
    return vectors;
  }
}

/**
 * An `Embedder` over an OpenAI-compatible `POST /embeddings` endpoint: batches of 64, the
 * `dimensions` parameter when configured, vectors ordered by `index` and L2-normalised, and the same
 * retry policy as the chat adapter (every failure is MemoryError EMBEDDING_FAILED).
 */
export function createOpenAiEmbedder(
  config: OpenAiEmbeddingsConfig,
  options: OpenAiEmbedderOptions = {},
): Embedder {
  return new OpenAiEmbedder(config, options);
}

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiEmbedder, type OpenAiEmbeddingsConfig } from '../../src/adapters/llm/index.js';
import { MemoryError } from '../../src/errors/index.js';
import {
  defaultEmbedding,
  OpenAiReply,
  type ScriptedOpenAiServer,
  startScriptedOpenAiServer,
} from '../../src/testing/index.js';
import { recordingSleep } from './helpers.js';

let server: ScriptedOpenAiServer;
beforeAll(async () => {
  server = await startScriptedOpenAiServer({ embeddingDimensions: 12 });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const config = (over: Partial<OpenAiEmbeddingsConfig> = {}): OpenAiEmbeddingsConfig => ({
  baseUrl: server.url,
  apiKey: 'sk-test',
  model: 'text-embedding-3-small',
  dimensions: null,
  timeoutMs: 2000,
  maxRetries: 2,
  ...over,
});

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe('openai embedder', () => {
  it('batches 130 inputs as 64 + 64 + 2, in order, L2-normalised', async () => {
    const texts = Array.from({ length: 130 }, (_, i) => `text number ${i}`);
    const embedder = createOpenAiEmbedder(config());
    const vectors = await embedder.embed(texts);
    expect(server.embeddingRequests.map((r) => r.body.input?.length)).toEqual([64, 64, 2]);
    expect(server.embeddingRequests[0]?.body).toMatchObject({
      model: 'text-embedding-3-small',
      encoding_format: 'float',
    });
    expect('dimensions' in (server.embeddingRequests[0]?.body ?? {})).toBe(false);
    expect(vectors).toHaveLength(130);
    for (const v of vectors) expect(norm(v)).toBeCloseTo(1, 5);
    const raw = defaultEmbedding('text number 129', 12);
    const rawNorm = Math.sqrt(raw.reduce((s, x) => s + x * x, 0));
    expect(vectors[129]?.[0]).toBeCloseTo((raw[0] ?? 0) / rawNorm, 5);
  });

  it('restores input order from `index` when the server shuffles data', async () => {
    server.scriptEmbeddings(
      OpenAiReply.vectors(
        [
          [1, 0],
          [0, 2],
          [3, 4],
        ],
        { reverseOrder: true },
      ),
    );
    const vectors = await createOpenAiEmbedder(config()).embed(['a', 'b', 'c']);
    expect(vectors.map((v) => Array.from(v))).toEqual([
      [1, 0],
      [0, 1],
      [0.6000000238418579, 0.800000011920929],
    ]);
  });

  it('dimensions are unknown until the first call unless configured; the id carries them', async () => {
    const lazy = createOpenAiEmbedder(config());
    expect([lazy.dimensions, lazy.id]).toEqual([undefined, 'openai:text-embedding-3-small:auto']);
    await lazy.embed(['x']);
    expect([lazy.dimensions, lazy.id]).toEqual([12, 'openai:text-embedding-3-small:12']);

    const fixed = createOpenAiEmbedder(config({ dimensions: 8 }));
    expect([fixed.dimensions, fixed.id]).toEqual([8, 'openai:text-embedding-3-small:8']);
    const [v] = await fixed.embed(['x']);
    expect(server.embeddingRequests.at(-1)?.body.dimensions).toBe(8);
    expect(v).toHaveLength(8);
  });

  it('an empty input makes no request', async () => {
    expect(await createOpenAiEmbedder(config()).embed([])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('retries 503 and resets, then succeeds', async () => {
    const { sleep, delays } = recordingSleep();
    server.scriptEmbeddings(OpenAiReply.error(503, { retryAfter: 1 }), OpenAiReply.reset());
    const vectors = await createOpenAiEmbedder(config(), { sleep }).embed(['a']);
    expect(vectors).toHaveLength(1);
    expect(server.embeddingRequests).toHaveLength(3);
    expect(delays[0]).toBe(1000);
  });

  it('400 → EMBEDDING_FAILED at once, naming the model and the dimensions knob', async () => {
    const { sleep } = recordingSleep();
    server.scriptEmbeddings(
      OpenAiReply.error(400, { errorMessage: 'dimensions not supported for "secret text"' }),
    );
    const error = await createOpenAiEmbedder(config({ dimensions: 64 }), { sleep })
      .embed(['secret text'])
      .catch((e: unknown) => e);
    expect(MemoryError.is(error, 'EMBEDDING_FAILED')).toBe(true);
    expect((error as MemoryError).message).toContain('"text-embedding-3-small"');
    expect((error as MemoryError).message).toContain('dimensions');
    expect((error as MemoryError).message).not.toContain('secret');
    expect(server.embeddingRequests).toHaveLength(1);
  });

  it('unavailable after maxRetries + 1 attempts; a wrong vector count is retried as invalid', async () => {
    const { sleep } = recordingSleep();
    server.scriptEmbeddings(OpenAiReply.vectors([[1, 2]]), OpenAiReply.error(500), OpenAiReply.error(500));
    const error = await createOpenAiEmbedder(config(), { sleep })
      .embed(['a', 'b'])
      .catch((e: unknown) => e);
    expect(MemoryError.is(error, 'EMBEDDING_FAILED')).toBe(true);
    expect((error as MemoryError).message).toContain('after 3 attempt(s)');
  });

  it('vectors whose size changes between calls are EMBEDDING_FAILED', async () => {
    const embedder = createOpenAiEmbedder(config());
    server.scriptEmbeddings(OpenAiReply.vectors([[1, 2, 3]]), OpenAiReply.vectors([[1, 2]]));
    await embedder.embed(['a']);
    await expect(embedder.embed(['b'])).rejects.toMatchObject({ code: 'EMBEDDING_FAILED' });
  });
});

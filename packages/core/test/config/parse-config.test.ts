import { describe, expect, it } from 'vitest';
import { MemoryError, parseConfig } from '../../src/index.js';

const issuesOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (MemoryError.is(error, 'CONFIG_INVALID')) return error.issues.map((i) => i.path.join('.'));
    throw error;
  }
  return 'no error';
};

describe('configuration', () => {
  it('has defaults for everything and freezes the result', () => {
    const c = parseConfig({});
    expect(c.storage).toEqual({ url: 'sqlite://./permafrost.db', scheme: 'sqlite' });
    expect(c.llm).toEqual({ kind: 'heuristic' });
    expect(c.embeddings).toEqual({ provider: 'hashing', dimensions: 256 });
    expect(c.batching).toMatchObject({ batchSizeMessages: 10, maxAgeSeconds: 300, leaseSeconds: 120 });
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.retrieval.weights)).toBe(true);
    expect(() => {
      (c.batching as { batchSizeMessages: number }).batchSizeMessages = 99;
    }).toThrow();
  });

  it('rejects unknown keys and out-of-range values, listing every issue', () => {
    expect(issuesOf(() => parseConfig({ surprise: 1 } as never))).toEqual(['surprise']);
    expect(issuesOf(() => parseConfig({ batching: { batchSizeMessages: 0, maxAgeSeconds: -1 } }))).toEqual([
      'batching.batchSizeMessages',
      'batching.maxAgeSeconds',
    ]);
    expect(issuesOf(() => parseConfig({ retrieval: { weights: { semantic: 2 } } }))).toEqual([
      'retrieval.weights.semantic',
    ]);
    expect(issuesOf(() => parseConfig({ retrieval: { semanticScale: 'minmax' } } as never))).toEqual([
      'retrieval.semanticScale',
    ]);
    expect(issuesOf(() => parseConfig({ observe: { ignorePatterns: ['(unclosed'] } }))).toEqual([
      'observe.ignorePatterns.0',
    ]);
  });

  it('parses storage URLs and refuses unknown schemes', () => {
    expect(parseConfig({ storage: 'sqlite://:memory:' }).storage.scheme).toBe('sqlite');
    expect(parseConfig({ storage: 'mongodb://localhost:27017/bot' }).storage.scheme).toBe('mongodb');
    expect(parseConfig({ storage: 'mongodb+srv://user:pw@cluster.example.net/bot' }).storage.scheme).toBe(
      'mongodb',
    );
    expect(parseConfig({ storage: 'memory' }).storage.scheme).toBe('memory');
    expect(issuesOf(() => parseConfig({ storage: 'postgres://localhost/db' }))).toEqual(['storage']);
  });

  it('parses openai:// model URLs with $ENV expansion, http only for loopback', () => {
    const c = parseConfig(
      {
        llm: 'openai://$PF_TEST_KEY@openrouter.ai/api/v1?model=z-ai/glm&small_model=z-ai/glm-mini&reasoning=low&temperature=none&structured_outputs=json_object&max_tokens_key=max_completion_tokens',
      },
      { env: { PF_TEST_KEY: 'sk-test' } },
    );
    expect(c.llm).toMatchObject({
      kind: 'openai',
      baseUrl: 'https://openrouter.ai/api/v1',
      apiKey: 'sk-test',
      model: 'z-ai/glm',
      smallModel: 'z-ai/glm-mini',
      reasoningEffort: 'low',
      temperature: null,
      structuredOutputs: 'json_object',
      maxTokensKey: 'max_completion_tokens',
    });
    expect(parseConfig({ llm: 'openai://k@127.0.0.1:8080/v1?model=m' }).llm).toMatchObject({
      baseUrl: 'http://127.0.0.1:8080/v1',
    });
    expect(issuesOf(() => parseConfig({ llm: 'openai://$PF_MISSING@host/v1?model=m' }, { env: {} }))).toEqual(
      ['llm'],
    );
    expect(issuesOf(() => parseConfig({ llm: 'openai://k@host/v1?model=m&bogus=1' }))).toEqual(['llm']);
    expect(parseConfig({ llm: null }).llm).toBeNull();
  });

  it('parses embedding specs', () => {
    expect(parseConfig({ embeddings: 'local' }).embeddings).toMatchObject({
      provider: 'local',
      modelPath: null,
    });
    expect(parseConfig({ embeddings: 'local:/models/minilm' }).embeddings).toMatchObject({
      provider: 'local',
      modelPath: '/models/minilm',
    });
    expect(
      parseConfig({ embeddings: 'openai://k@api.openai.com/v1?model=text-embedding-3-small&dimensions=512' })
        .embeddings,
    ).toMatchObject({ provider: 'openai', model: 'text-embedding-3-small', dimensions: 512 });
    expect(parseConfig({ embeddings: { provider: 'hashing', dimensions: 128 } }).embeddings).toMatchObject({
      dimensions: 128,
    });
    expect(issuesOf(() => parseConfig({ embeddings: { provider: 'hashing', dimensions: 8 } }))).not.toBe(
      'no error',
    );
  });

  it('never echoes secret or user values in the error message', () => {
    try {
      parseConfig({ llm: 'openai://sk-SECRET@host/v1?model=m&bogus=1' });
    } catch (error) {
      expect((error as Error).message).not.toContain('SECRET');
    }
  });
});

import { describe, expect, it } from 'vitest';
import { createMemory, MemoryError, parseConfig } from '../../src/index.js';

/** The CONFIG_INVALID message and issues of a configuration (fails the test when it parses). */
function failure(config: unknown, env: Record<string, string> = {}): { message: string; issues: string[] } {
  try {
    parseConfig(config as never, { env });
  } catch (error) {
    if (!MemoryError.is(error, 'CONFIG_INVALID')) throw error;
    return {
      message: error.message,
      issues: error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
    };
  }
  throw new Error('expected CONFIG_INVALID');
}

describe('configuration errors name the key, the problem and the fix', () => {
  it('README LLM example without its key set', () => {
    const { message, issues } = failure({
      llm: 'openai://$OPENROUTER_KEY@openrouter.ai/api/v1?model=z-ai/glm-5.3-flash',
    });
    expect(issues).toEqual([
      'llm: $OPENROUTER_KEY is not set; export OPENROUTER_KEY=<value> in the environment of the bot (or write the value into the URL)',
    ]);
    expect(message).toContain('llm: $OPENROUTER_KEY is not set');
    expect(message).not.toContain('Invalid input');
  });

  it('the same through createMemory, with overrides.env', () => {
    expect(() => createMemory({ llm: 'openai://$PF_KEY@h/v1?model=m' }, { env: {} })).toThrow(
      /llm: \$PF_KEY is not set; export PF_KEY=/,
    );
  });

  it('an endpoint URL without ?model=', () => {
    expect(failure({ llm: 'openai://k@openrouter.ai/api/v1' }).issues).toEqual([
      'llm: the URL has no ?model=; add ?model=<name>, e.g. openai://$KEY@host/v1?model=gpt-4o-mini',
    ]);
  });

  it('temperature out of range, in URL and object form', () => {
    expect(failure({ llm: 'openai://k@h/v1?model=m&temperature=7' }).issues).toEqual([
      'llm: temperature=7 is too large; use 2 or less',
    ]);
    expect(failure({ llm: { baseUrl: 'https://h/v1', model: 'm', temperature: -1 } }).issues).toEqual([
      'llm.temperature: -1 is too small; use 0 or more',
    ]);
  });

  it('a URL parameter with a value outside its choices, and an unknown one', () => {
    expect(failure({ llm: 'openai://k@h/v1?model=m&reasoning=huge' }).issues).toEqual([
      'llm: reasoning: "huge" is not allowed; use one of "none", "minimal", "low", "medium", "high"',
    ]);
    const unknown = failure({ llm: 'openai://sk-SECRET@h/v1?model=m&bogus=1' });
    expect(unknown.issues).toEqual([
      'llm: unknown openai:// parameter "bogus"; use model, small_model, reasoning, temperature, structured_outputs, max_tokens, max_tokens_key, deadline_ms or dimensions',
    ]);
    expect(unknown.message).not.toContain('SECRET');
  });

  it('a value of the wrong kind for a union key', () => {
    expect(failure({ llm: 5 }).issues).toEqual([
      'llm: 5 is not accepted; use "heuristic", null (extraction off), an openai://<key or $ENV>@host/path?model=<name> URL or an endpoint object { baseUrl, apiKey, model }',
    ]);
    expect(failure({ llm: 'gpt-4o' }).issues).toEqual([
      'llm: not an endpoint URL; use openai://<key or $ENV>@host[:port]/path?model=<name>, "heuristic" or null',
    ]);
    expect(failure({ embeddings: 'minilm' }).issues[0]).toMatch(
      /^embeddings: a string is not accepted; use "hashing", "local"/,
    );
  });

  it('numbers out of range or not whole, booleans of the wrong type', () => {
    expect(failure({ retrieval: { topK: 0 } }).issues).toEqual([
      'retrieval.topK: 0 is too small; use 1 or more',
    ]);
    expect(failure({ workers: { count: 99 } }).issues).toEqual([
      'workers.count: 99 is too large; use 32 or less',
    ]);
    expect(failure({ workers: { count: 2.5 } }).issues).toEqual([
      'workers.count: 2.5 is not a whole number; use an integer',
    ]);
    expect(failure({ workers: { enabled: 'yes' } }).issues).toEqual([
      'workers.enabled: expected a boolean, got a string',
    ]);
    expect(failure({ embeddings: 'openai://k@h/v1?dimensions=2' }).issues).toEqual([
      'embeddings: dimensions=2 is too small; use 8 or more',
    ]);
  });

  it('unknown keys: a likely typo is named, otherwise the keys of that level are listed', () => {
    expect(failure({ retrieval: { topk: 3 } }).issues).toEqual([
      'retrieval.topk: unknown key; did you mean "topK"?',
    ]);
    expect(failure({ worker: {} }).issues).toEqual(['worker: unknown key; did you mean "workers"?']);
    expect(failure({ batching: { frobnicate: 1 } }).issues[0]).toMatch(
      /^batching\.frobnicate: unknown key; remove it \(keys here: batchSizeMessages, /,
    );
  });

  it('storage URLs', () => {
    expect(failure({ storage: 'postgres://h/db' }).issues).toEqual([
      'storage: unsupported storage scheme "postgres" (use sqlite, mongodb, mongodb+srv or memory)',
    ]);
    expect(failure({ storage: 'sqlite://' }).issues[0]).toContain('sqlite://./memory.db (relative');
  });

  it('a bad ignore pattern names its index', () => {
    expect(failure({ observe: { ignorePatterns: ['ok', '(unclosed'] } }).issues).toEqual([
      'observe.ignorePatterns.1: is not a valid regular expression; fix or remove the pattern',
    ]);
  });

  it('lists every issue in one message', () => {
    const { message } = failure({ retrieval: { topK: 0 }, workers: { count: 99 } });
    expect(message).toBe(
      'invalid configuration: workers.count: 99 is too large; use 32 or less | retrieval.topK: 0 is too small; use 1 or more',
    );
  });
});

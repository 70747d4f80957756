import { APIError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BACKOFF_BASE_MS,
  BACKOFF_MAX_MS,
  createOpenAiChatModel,
  RETRY_AFTER_CAP_MS,
  retryDelayMs,
} from '../../src/adapters/llm/index.js';
import { MemoryError } from '../../src/errors/index.js';
import type { LogEvent } from '../../src/ports/logger.js';
import {
  OpenAiReply,
  type ScriptedOpenAiServer,
  startScriptedOpenAiServer,
} from '../../src/testing/index.js';
import { chatConfig, jsonSchemaRequest, recordingSleep, textRequest } from './helpers.js';

let server: ScriptedOpenAiServer;
beforeAll(async () => {
  server = await startScriptedOpenAiServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

async function failure(promise: Promise<unknown>): Promise<MemoryError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!MemoryError.is(error)) throw new Error(`expected a MemoryError, got ${String(error)}`);
  return error;
}

describe('retries', () => {
  it('429 with retry-after, then success: waits the retry-after', async () => {
    const { sleep, delays } = recordingSleep();
    server.script(OpenAiReply.rateLimited(2), OpenAiReply.text('done'));
    const res = await createOpenAiChatModel(chatConfig(server.url), { sleep }).complete(textRequest());
    expect(res.text).toBe('done');
    expect(server.chatRequests).toHaveLength(2);
    expect(delays).toEqual([2000]);
  });

  it('caps a huge retry-after', async () => {
    const { sleep, delays } = recordingSleep();
    server.script(OpenAiReply.error(503, { retryAfter: 3600 }), OpenAiReply.text('ok'));
    await createOpenAiChatModel(chatConfig(server.url), { sleep }).complete(textRequest());
    expect(delays).toEqual([RETRY_AFTER_CAP_MS]);
  });

  it('500 × N → LLM_UNAVAILABLE after maxRetries + 1 attempts, cause kept, backoff grows', async () => {
    const { sleep, delays } = recordingSleep();
    server.script(...Array.from({ length: 4 }, () => OpenAiReply.error(500)));
    const llm = createOpenAiChatModel(chatConfig(server.url, { maxRetries: 3 }), { sleep, random: () => 1 });
    const error = await failure(llm.complete(textRequest()));
    expect(error.code).toBe('LLM_UNAVAILABLE');
    expect(error.message).toContain('test-model');
    expect(error.message).toContain('HTTP 500');
    expect(error.cause).toBeInstanceOf(APIError);
    expect(server.chatRequests).toHaveLength(4);
    expect(delays).toEqual([BACKOFF_BASE_MS, BACKOFF_BASE_MS * 2, BACKOFF_BASE_MS * 4]);
  });

  it('retries each retryable status: 408 409 502 503 504', async () => {
    const { sleep } = recordingSleep();
    for (const status of [408, 409, 502, 503, 504]) server.script(OpenAiReply.error(status));
    server.script(OpenAiReply.text('finally'));
    const llm = createOpenAiChatModel(chatConfig(server.url, { maxRetries: 5 }), { sleep });
    expect((await llm.complete(textRequest())).text).toBe('finally');
    expect(server.chatRequests).toHaveLength(6);
  });

  it('timeout → retry → success', async () => {
    const { sleep } = recordingSleep();
    server.script(OpenAiReply.delay(2000, OpenAiReply.text('late')), OpenAiReply.text('fast'));
    const llm = createOpenAiChatModel(chatConfig(server.url, { timeoutMs: 150 }), { sleep });
    expect((await llm.complete(textRequest())).text).toBe('fast');
    expect(server.chatRequests).toHaveLength(2);
  });

  it('connection reset → retry → success', async () => {
    const { sleep } = recordingSleep();
    server.script(OpenAiReply.reset(), OpenAiReply.text('after reset'));
    const llm = createOpenAiChatModel(chatConfig(server.url), { sleep });
    expect((await llm.complete(textRequest())).text).toBe('after reset');
    expect(server.chatRequests).toHaveLength(2);
  });

  it('malformed JSON body → retry → success; empty choices × N → LLM_UNAVAILABLE', async () => {
    const { sleep } = recordingSleep();
    server.script(OpenAiReply.malformed(), OpenAiReply.text('valid'));
    const llm = createOpenAiChatModel(chatConfig(server.url, { maxRetries: 1 }), { sleep });
    expect((await llm.complete(textRequest())).text).toBe('valid');
    server.script(OpenAiReply.emptyChoices(), OpenAiReply.emptyChoices());
    const error = await failure(llm.complete(textRequest()));
    expect(error.code).toBe('LLM_UNAVAILABLE');
    expect(error.message).toContain('invalid response');
  });

  it('401 gives up at once with LLM_UNAVAILABLE naming the API key', async () => {
    const { sleep, delays } = recordingSleep();
    server.script(OpenAiReply.error(401));
    const error = await failure(
      createOpenAiChatModel(chatConfig(server.url), { sleep }).complete(textRequest()),
    );
    expect(error.code).toBe('LLM_UNAVAILABLE');
    expect(error.message).toContain('API key');
    expect(server.chatRequests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('logs retries as content-free events', async () => {
    const events: LogEvent[] = [];
    server.script(OpenAiReply.error(503), OpenAiReply.text('x'));
    const llm = createOpenAiChatModel(chatConfig(server.url), {
      sleep: recordingSleep().sleep,
      logger: (e) => events.push(e),
    });
    await llm.complete(textRequest());
    expect(events.map((e) => e.event)).toEqual(['llm.retry']);
    expect(events[0]?.data).toMatchObject({ model: 'test-model', attempt: 1, failure: 'HTTP 503' });
  });
});

describe('capability errors', () => {
  for (const status of [400, 404, 422]) {
    it(`HTTP ${status} → LLM_CAPABILITY immediately, naming the model, never the provider text`, async () => {
      const { sleep, delays } = recordingSleep();
      server.script(
        OpenAiReply.error(status, { errorMessage: 'Invalid request near "Alice loves climbing."' }),
      );
      const error = await failure(
        createOpenAiChatModel(chatConfig(server.url), { sleep }).complete(jsonSchemaRequest()),
      );
      expect(error.code).toBe('LLM_CAPABILITY');
      expect(error.message).toContain('"test-model"');
      expect(error.message).toContain(`HTTP ${status}`);
      expect(error.message).not.toContain('Alice');
      expect((error.cause as APIError).status).toBe(status);
      expect(server.chatRequests).toHaveLength(1);
      expect(delays).toEqual([]);
    });
  }

  it('names the knob the provider complains about', async () => {
    const cases: [string, Parameters<typeof chatConfig>[1], string][] = [
      ["Unsupported parameter: 'max_tokens'", {}, 'max_tokens_key=max_completion_tokens'],
      ["Unsupported value: 'temperature' does not support 0", {}, 'temperature=none'],
      ['Invalid schema for response_format', {}, 'structured_outputs=json_object'],
      ['reasoning is not supported by this model', { reasoningEffort: 'low' }, 'reasoning'],
    ];
    for (const [providerText, over, knob] of cases) {
      server.script(OpenAiReply.error(400, { errorMessage: providerText }));
      const llm = createOpenAiChatModel(chatConfig(server.url, over));
      const error = await failure(llm.complete(jsonSchemaRequest()));
      expect(error.message).toMatch(new RegExp(`most likely knob to change: ${knob}`));
    }
  });

  it('a strict schema request with an unhelpful 400 suggests structured_outputs=json_object first', async () => {
    server.script(OpenAiReply.error(400, { errorMessage: 'Bad request' }));
    const error = await failure(createOpenAiChatModel(chatConfig(server.url)).complete(jsonSchemaRequest()));
    expect(error.message).toContain('most likely knob to change: structured_outputs=json_object');
    expect(error.message).toContain('max_tokens_key=max_completion_tokens');
    expect(error.message).toContain('temperature=none');
  });

  it('404 without a hint points at the model name', async () => {
    server.script(OpenAiReply.error(404, { errorMessage: 'Not found' }));
    const error = await failure(createOpenAiChatModel(chatConfig(server.url)).complete(textRequest()));
    expect(error.message).toContain('most likely knob to change: model');
  });
});

describe('abort', () => {
  it('aborting during a slow call rejects with the signal reason, without retrying', async () => {
    server.script(OpenAiReply.delay(2000));
    const controller = new AbortController();
    const llm = createOpenAiChatModel(chatConfig(server.url, { timeoutMs: 5000 }));
    const pending = llm.complete(textRequest({ signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('stop')), 50);
    await expect(pending).rejects.toThrow('stop');
    expect(server.chatRequests).toHaveLength(1);
  });

  it('aborting during backoff stops further attempts', async () => {
    const controller = new AbortController();
    server.script(OpenAiReply.error(503), OpenAiReply.text('never'));
    const llm = createOpenAiChatModel(chatConfig(server.url), {
      sleep: () => {
        controller.abort();
        return new Promise(() => {});
      },
    });
    await expect(llm.complete(textRequest({ signal: controller.signal }))).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(server.chatRequests).toHaveLength(1);
  });
});

describe('retryDelayMs', () => {
  it('exponential with jitter in [50 %, 100 %], capped', () => {
    expect(retryDelayMs(1, null, () => 0)).toBe(BACKOFF_BASE_MS / 2);
    expect(retryDelayMs(3, null, () => 1)).toBe(BACKOFF_BASE_MS * 4);
    expect(retryDelayMs(20, null, () => 1)).toBe(BACKOFF_MAX_MS);
    expect(retryDelayMs(1, 1234, () => 0)).toBe(1234);
  });
});

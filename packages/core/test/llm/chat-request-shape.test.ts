import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createOpenAiChatModel,
  createOpenAiChatModels,
  PURPOSE_HEADER,
} from '../../src/adapters/llm/index.js';
import {
  OpenAiReply,
  type ScriptedOpenAiServer,
  startScriptedOpenAiServer,
} from '../../src/testing/index.js';
import { chatConfig, jsonSchemaRequest, loopbackFetch, SCHEMA, textRequest } from './helpers.js';

let server: ScriptedOpenAiServer;
beforeAll(async () => {
  server = await startScriptedOpenAiServer({ handler: () => OpenAiReply.json({ ok: true }) });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const lastBody = () => server.chatRequests.at(-1)?.body ?? {};

describe('chat request shape', () => {
  it('sends strict json_schema with name, strict: true and the schema', async () => {
    const llm = createOpenAiChatModel(chatConfig(server.url));
    const res = await llm.complete(jsonSchemaRequest());
    expect(res.text).toBe('{"ok":true}');
    const body = lastBody();
    expect(body.model).toBe('test-model');
    expect(body.messages).toEqual(jsonSchemaRequest().messages);
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'extraction_output', strict: true, schema: SCHEMA },
    });
    expect(body.max_tokens).toBe(500);
    expect(body.temperature).toBe(0);
    expect('max_completion_tokens' in body).toBe(false);
    expect('usage' in body || 'provider' in body || 'reasoning_effort' in body).toBe(false);
  });

  it('sanitises the schema name to [a-zA-Z0-9_-]{1,64}', async () => {
    const llm = createOpenAiChatModel(chatConfig(server.url));
    await llm.complete(
      jsonSchemaRequest({ responseFormat: { type: 'json_schema', name: 'a b.c', schema: SCHEMA } }),
    );
    expect(lastBody().response_format?.json_schema?.name).toBe('a_b_c');
  });

  it('json_object mode: response_format json_object and the schema appended to the system message', async () => {
    const llm = createOpenAiChatModel(chatConfig(server.url, { structuredOutputs: 'json_object' }));
    await llm.complete(jsonSchemaRequest());
    const body = lastBody();
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.messages).toHaveLength(2);
    const system = String(body.messages?.[0]?.content);
    expect(system.startsWith('You extract facts.')).toBe(true);
    expect(system).toContain('JSON Schema');
    expect(system).toContain(JSON.stringify(SCHEMA));
  });

  it('json_object mode without a system message prepends one', async () => {
    const llm = createOpenAiChatModel(chatConfig(server.url, { structuredOutputs: 'json_object' }));
    await llm.complete(jsonSchemaRequest({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(lastBody().messages?.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('a json_object request is sent as json_object; a text request has no response_format', async () => {
    const llm = createOpenAiChatModel(chatConfig(server.url));
    await llm.complete(textRequest({ responseFormat: { type: 'json_object' } }));
    expect(lastBody().response_format).toEqual({ type: 'json_object' });
    await llm.complete(textRequest());
    expect('response_format' in lastBody()).toBe(false);
  });

  it('max_tokens_key=max_completion_tokens sends only that key', async () => {
    const llm = createOpenAiChatModel(chatConfig(server.url, { maxTokensKey: 'max_completion_tokens' }));
    await llm.complete(textRequest());
    expect(lastBody().max_completion_tokens).toBe(200);
    expect('max_tokens' in lastBody()).toBe(false);
  });

  it('temperature=none omits the key; a number is sent', async () => {
    await createOpenAiChatModel(chatConfig(server.url, { temperature: null })).complete(textRequest());
    expect('temperature' in lastBody()).toBe(false);
    await createOpenAiChatModel(chatConfig(server.url, { temperature: 0.7 })).complete(textRequest());
    expect(lastBody().temperature).toBe(0.7);
  });

  it('reasoning effort is sent as reasoning_effort (OpenAI style)', async () => {
    await createOpenAiChatModel(chatConfig(server.url, { reasoningEffort: 'low' })).complete(textRequest());
    expect(lastBody().reasoning_effort).toBe('low');
    expect('reasoning' in lastBody()).toBe(false);
  });

  it('sends the purpose header and the bearer key; a keyless endpoint gets no Authorization header', async () => {
    await createOpenAiChatModel(chatConfig(server.url)).complete(textRequest());
    const req = server.chatRequests.at(-1);
    expect(req?.purpose).toBe('summarize');
    expect(req?.headers[PURPOSE_HEADER]).toBe('summarize');
    expect(req?.headers).toMatchObject({ authorization: 'Bearer sk-test' });
    await createOpenAiChatModel(chatConfig(server.url, { apiKey: '' })).complete(textRequest());
    expect(Object.keys(server.chatRequests.at(-1)?.headers ?? {})).not.toContain('authorization');
  });

  it('the model override and createOpenAiChatModels select the small model', async () => {
    const config = chatConfig(server.url, { smallModel: 'tiny-model' });
    const { main, small } = createOpenAiChatModels(config);
    expect([main.model, small.model]).toEqual(['test-model', 'tiny-model']);
    await small.complete(textRequest());
    expect(lastBody().model).toBe('tiny-model');
    const same = createOpenAiChatModels(chatConfig(server.url));
    expect(same.small).toBe(same.main);
    expect(createOpenAiChatModel(config, { model: 'other' }).model).toBe('other');
  });
});

describe('OpenRouter extras', () => {
  it('auto-detects a host containing openrouter.ai: usage, reasoning, provider.require_parameters', async () => {
    const llm = createOpenAiChatModel(
      chatConfig(`http://openrouter.ai.test:${server.port}/v1`, { reasoningEffort: 'high' }),
      { fetch: loopbackFetch(server.port) },
    );
    await llm.complete(jsonSchemaRequest());
    const body = lastBody();
    expect(body.usage).toEqual({ include: true });
    expect(body.reasoning).toEqual({ effort: 'high' });
    expect(body.provider).toEqual({ require_parameters: true });
    expect('reasoning_effort' in body).toBe(false);
  });

  it('require_parameters only for strict json_schema requests', async () => {
    const llm = createOpenAiChatModel(chatConfig(server.url), { provider: 'openrouter' });
    await llm.complete(textRequest());
    expect(lastBody().usage).toEqual({ include: true });
    expect('provider' in lastBody()).toBe(false);
    const jsonMode = createOpenAiChatModel(chatConfig(server.url, { structuredOutputs: 'json_object' }), {
      provider: 'openrouter',
    });
    await jsonMode.complete(jsonSchemaRequest());
    expect('provider' in lastBody()).toBe(false);
  });

  it("provider: 'openrouter' forces the extras on a loopback URL; 'openai' turns them off", async () => {
    await createOpenAiChatModel(chatConfig(server.url), { provider: 'openrouter' }).complete(
      jsonSchemaRequest(),
    );
    expect(lastBody().provider).toEqual({ require_parameters: true });
    const off = createOpenAiChatModel(chatConfig(`http://openrouter.ai.test:${server.port}/v1`), {
      provider: 'openai',
      fetch: loopbackFetch(server.port),
    });
    await off.complete(jsonSchemaRequest());
    expect('usage' in lastBody() || 'provider' in lastBody()).toBe(false);
  });

  it('a plain loopback URL gets no extras in auto mode', async () => {
    await createOpenAiChatModel(chatConfig(server.url)).complete(jsonSchemaRequest());
    expect('usage' in lastBody()).toBe(false);
  });
});

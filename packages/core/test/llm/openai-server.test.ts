import { Agent, request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAiChatModel } from '../../src/adapters/llm/index.js';
import {
  OpenAiReply,
  type ScriptedOpenAiServer,
  startScriptedOpenAiServer,
} from '../../src/testing/index.js';
import { chatConfig, jsonSchemaRequest, recordingSleep, textRequest } from './helpers.js';

let server: ScriptedOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('scripted OpenAI server', () => {
  it('listens on 127.0.0.1 with a /v1 base URL and answers in the OpenAI shape', async () => {
    server = await startScriptedOpenAiServer();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    server.script(
      OpenAiReply.json({ a: 1 }, { cost: 0.01, usage: { promptTokens: 3, completionTokens: 2 } }),
    );
    const res = await post(`${server.url}/chat/completions`, {
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      object: 'chat.completion',
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: '{"a":1}' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5, cost: 0.01 },
    });
    expect(server.requests[0]).toMatchObject({
      endpoint: 'chat',
      path: '/v1/chat/completions',
      text: 'hi',
      index: 0,
    });
  });

  it('routes by purpose with a handler; queued steps (also functions) come first', async () => {
    server = await startScriptedOpenAiServer({
      handler: (req) =>
        req.purpose === 'extraction'
          ? OpenAiReply.json({ operations: [] })
          : OpenAiReply.text(`echo ${req.text}`),
    });
    server.script((req) => OpenAiReply.text(`first for ${req.purpose}`));
    const llm = createOpenAiChatModel(chatConfig(server.url));
    expect((await llm.complete(textRequest())).text).toBe('first for summarize');
    expect((await llm.complete(jsonSchemaRequest())).text).toBe('{"operations":[]}');
    expect((await llm.complete(textRequest())).text).toBe('echo Summarise Alice.');
    expect(server.pending()).toEqual({ chat: 0, embeddings: 0 });
  });

  it('unscripted chat requests get a 500 and are counted; unknown routes get 404', async () => {
    server = await startScriptedOpenAiServer();
    const llm = createOpenAiChatModel(chatConfig(server.url, { maxRetries: 0 }), {
      sleep: recordingSleep().sleep,
    });
    await expect(llm.complete(textRequest())).rejects.toMatchObject({ code: 'LLM_UNAVAILABLE' });
    expect(server.unscripted).toBe(1);
    const res = await fetch(`${server.url}/models`);
    expect(res.status).toBe(404);
    expect(server.requests.at(-1)?.endpoint).toBe('other');
  });

  it('error replies carry an OpenAI error body and the retry-after header; rawBody is sent verbatim', async () => {
    server = await startScriptedOpenAiServer();
    server.script(OpenAiReply.rateLimited(7), { rawBody: 'not json' });
    const limited = await post(`${server.url}/chat/completions`, {});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(await limited.json()).toMatchObject({ error: { type: 'rate_limit_error' } });
    expect(await (await post(`${server.url}/chat/completions`, {})).text()).toBe('not json');
  });

  it('never times an idle kept-alive connection out itself: the client closes it, so no request is lost', async () => {
    server = await startScriptedOpenAiServer();
    server.script(OpenAiReply.text('one'), OpenAiReply.text('two'));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = () =>
      new Promise<{ keepAlive: unknown; reused: boolean; status: number }>((resolve, reject) => {
        const req = httpRequest(
          `${(server as ScriptedOpenAiServer).url}/chat/completions`,
          { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
          (res) => {
            res.resume();
            res.on('end', () =>
              resolve({
                keepAlive: res.headers['keep-alive'],
                reused: req.reusedSocket,
                status: res.statusCode ?? 0,
              }),
            );
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
      });
    try {
      // A server-side idle timeout is announced as `Keep-Alive: timeout=N`; there is none.
      expect(await send()).toEqual({ keepAlive: undefined, reused: false, status: 200 });
      expect(await send()).toEqual({ keepAlive: undefined, reused: true, status: 200 });
    } finally {
      agent.destroy();
    }
  });

  it('close() drops connections held by a long delay', async () => {
    server = await startScriptedOpenAiServer();
    server.script(OpenAiReply.delay(60_000));
    const pending = post(`${server.url}/chat/completions`, {}).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await server.close();
    server = undefined;
    expect(await pending).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

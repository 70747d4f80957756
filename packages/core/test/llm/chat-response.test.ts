import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiChatModel } from '../../src/adapters/llm/index.js';
import {
  OpenAiReply,
  type ScriptedOpenAiServer,
  startScriptedOpenAiServer,
} from '../../src/testing/index.js';
import { chatConfig, textRequest } from './helpers.js';

let server: ScriptedOpenAiServer;
beforeAll(async () => {
  server = await startScriptedOpenAiServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe('chat response parsing', () => {
  it('joins an array of text content parts', async () => {
    server.script(OpenAiReply.parts('{"a":', '1}'));
    const res = await createOpenAiChatModel(chatConfig(server.url)).complete(textRequest());
    expect(res.text).toBe('{"a":1}');
  });

  it('skips non-text parts and treats null content as empty text', async () => {
    server.script(
      {
        content: [
          { type: 'reasoning', text: 'hidden' },
          { type: 'text', text: 'shown' },
        ],
      },
      { content: null },
    );
    const llm = createOpenAiChatModel(chatConfig(server.url));
    expect((await llm.complete(textRequest())).text).toBe('shown');
    expect((await llm.complete(textRequest())).text).toBe('');
  });

  it('reports usage tokens, the provider cost, and the served model', async () => {
    server.script(
      OpenAiReply.text('hi', {
        usage: { promptTokens: 120, completionTokens: 7 },
        cost: 0.000123,
        model: 'openai/gpt-4o-mini-2024-07-18',
      }),
    );
    const res = await createOpenAiChatModel(chatConfig(server.url)).complete(textRequest());
    expect(res).toEqual({
      text: 'hi',
      model: 'openai/gpt-4o-mini-2024-07-18',
      promptTokens: 120,
      completionTokens: 7,
      costUsd: 0.000123,
    });
  });

  it('cost is null without usage.cost; tokens are 0 without usage', async () => {
    server.script(OpenAiReply.text('a'), OpenAiReply.text('b', { usage: null }));
    const llm = createOpenAiChatModel(chatConfig(server.url));
    const first = await llm.complete(textRequest());
    expect(first.costUsd).toBeNull();
    expect(first.promptTokens).toBeGreaterThan(0);
    const second = await llm.complete(textRequest());
    expect([second.promptTokens, second.completionTokens, second.costUsd]).toEqual([0, 0, null]);
  });
});

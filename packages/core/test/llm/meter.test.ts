import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createMeter,
  createOpenAiChatModel,
  DEFAULT_PRICES,
  findPrice,
  meteredChatModel,
  priceCall,
} from '../../src/adapters/llm/index.js';
import type { MeterRecord } from '../../src/ports/meter.js';
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

const record = (over: Partial<MeterRecord>): MeterRecord => ({
  purpose: 'extraction',
  model: 'gpt-4o-mini',
  promptTokens: 1_000_000,
  completionTokens: 0,
  costUsd: null,
  ...over,
});

describe('price table', () => {
  it('longest matching substring wins, case-insensitively', () => {
    expect(findPrice('openai/GPT-4o-mini-2024-07-18', DEFAULT_PRICES)).toEqual({
      prompt: 0.15,
      completion: 0.6,
    });
    expect(findPrice('gpt-4o-2024-08-06', DEFAULT_PRICES)).toEqual({ prompt: 2.5, completion: 10 });
    expect(findPrice('google/gemini-2.5-flash-lite', DEFAULT_PRICES)?.prompt).toBe(0.1);
    expect(findPrice('llama3.2:3b', DEFAULT_PRICES)).toBeNull();
    expect(priceCall('gpt-4o-mini', 2_000_000, 1_000_000, DEFAULT_PRICES)).toBeCloseTo(0.9, 10);
  });
});

describe('meter', () => {
  it('accounts per purpose: provider cost first, then the table, else unpriced', () => {
    const meter = createMeter();
    meter.record(record({ costUsd: 0.5 }));
    meter.record(record({ promptTokens: 1_000_000, completionTokens: 1_000_000 }));
    meter.record(
      record({ purpose: 'reconcile', model: 'my-local-llama', promptTokens: 10, completionTokens: 5 }),
    );
    const snap = meter.snapshot();
    const { extraction, reconcile } = snap.byPurpose;
    expect(extraction).toEqual({
      calls: 2,
      promptTokens: 2_000_000,
      completionTokens: 1_000_000,
      costUsd: 0.5 + 0.15 + 0.6,
      unpricedCalls: 0,
      failedCalls: 0,
    });
    expect(reconcile).toMatchObject({ calls: 1, costUsd: 0, unpricedCalls: 1 });
    expect(snap.total).toMatchObject({
      calls: 3,
      promptTokens: 2_000_010,
      completionTokens: 1_000_005,
      unpricedCalls: 1,
    });
  });

  it('configured prices override and extend the defaults; defaults can be turned off', () => {
    const meter = createMeter({
      prices: { 'gpt-4o-mini': { prompt: 1, completion: 1 }, llama: { prompt: 2, completion: 0 } },
    });
    expect(meter.costOf(record({}))).toBe(1);
    expect(meter.costOf(record({ model: 'my-local-llama' }))).toBe(2);
    expect(createMeter({ defaultPrices: false }).costOf(record({}))).toBeNull();
  });

  it('reset clears the totals', () => {
    const meter = createMeter();
    meter.record(record({}));
    meter.reset();
    expect(meter.snapshot().total.calls).toBe(0);
  });
});

describe('meteredChatModel over HTTP', () => {
  it('records each successful call by purpose with the served model and reports usage', async () => {
    const meter = createMeter();
    const usage: MeterRecord[] = [];
    server.script(
      OpenAiReply.json(
        { ok: true },
        { usage: { promptTokens: 1000, completionTokens: 100 }, model: 'gpt-4o-mini' },
      ),
      OpenAiReply.text('digest', { usage: { promptTokens: 50, completionTokens: 10 }, cost: 0.25 }),
    );
    const llm = meteredChatModel(createOpenAiChatModel(chatConfig(server.url)), meter, (r) => {
      usage.push(r);
    });
    expect(llm.model).toBe('test-model');
    await llm.complete(jsonSchemaRequest({ guildId: 'g1' }));
    await llm.complete(textRequest());
    const { extraction, summarize } = meter.snapshot().byPurpose;
    expect(extraction).toMatchObject({
      calls: 1,
      promptTokens: 1000,
      completionTokens: 100,
    });
    expect(extraction?.costUsd).toBeCloseTo((1000 * 0.15 + 100 * 0.6) / 1e6, 12);
    expect(summarize).toMatchObject({ calls: 1, costUsd: 0.25, unpricedCalls: 0 });
    expect(usage).toEqual([
      {
        purpose: 'extraction',
        model: 'gpt-4o-mini',
        promptTokens: 1000,
        completionTokens: 100,
        costUsd: null,
        guildId: 'g1',
      },
      { purpose: 'summarize', model: 'test-model', promptTokens: 50, completionTokens: 10, costUsd: 0.25 },
    ]);
  });

  it('counts failures separately (no tokens) and rethrows; a throwing listener never fails the call', async () => {
    const meter = createMeter();
    server.script(OpenAiReply.error(400), OpenAiReply.text('fine'));
    const llm = meteredChatModel(
      createOpenAiChatModel(chatConfig(server.url), { sleep: recordingSleep().sleep }),
      meter,
      () => {
        throw new Error('budget store down');
      },
    );
    await expect(llm.complete(jsonSchemaRequest())).rejects.toMatchObject({ code: 'LLM_CAPABILITY' });
    await expect(llm.complete(jsonSchemaRequest())).resolves.toMatchObject({ text: 'fine' });
    const { extraction } = meter.snapshot().byPurpose;
    expect(extraction).toMatchObject({ calls: 1, failedCalls: 1 });
  });
});

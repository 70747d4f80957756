import { join } from 'node:path';
import {
  createMemory,
  createOpenAiChatModel,
  type ExtractionFailed,
  type Memory,
  MemoryError,
} from '@permafrost/core';
import { guardChatModel } from '@permafrost/core/internal';
import { type ScriptedOpenAiServer, startScriptedOpenAiServer } from '@permafrost/core/testing';
import '@permafrost/store-sqlite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from './support/paths.js';
import { chat, member, stampMessage } from './support/world.js';

/**
 * A model endpoint that accepts every connection and never answers (issue 16 §5): every call ends
 * at its overall deadline, close() aborts calls in flight and returns within its timeout, flush()
 * does not hang, and the batches stay queued (no attempt is charged for a close).
 */

const NEVER_MS = 600_000;
const SLACK_MS = 1000;
const ALICE = member(1);

let server: ScriptedOpenAiServer;
let temp: ReturnType<typeof tempDir>;
let open: Memory[] = [];

beforeAll(async () => {
  server = await startScriptedOpenAiServer({ handler: () => ({ delayMs: NEVER_MS }) });
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  temp = tempDir('stalled-llm');
  open = [];
});
afterEach(async () => {
  for (const m of open) await m.close({ drain: false });
  temp.cleanup();
});

function stalledMemory(name: string, query = '', workers = false): Memory {
  const memory = createMemory({
    storage: `sqlite://${join(temp.dir, `${name}.db`)}`,
    llm: `openai://k@127.0.0.1:${server.port}/v1?model=stalled${query}`,
    workers: workers ? { enabled: true, pollIntervalMs: 10 } : { enabled: false },
    batching: { batchSizeMessages: 1 },
    extraction: { noiseGate: false },
  });
  open.push(memory);
  return memory;
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function elapsed<T>(fn: () => Promise<T>): Promise<{ ms: number; result: PromiseSettledResult<T> }> {
  const t0 = Date.now();
  const [result] = await Promise.allSettled([fn()]);
  return { ms: Date.now() - t0, result: result as PromiseSettledResult<T> };
}

describe('an LLM endpoint that accepts and never answers', () => {
  it('one call ends at its overall deadline, retries included, with LLM_UNAVAILABLE', async () => {
    const lifetime = new AbortController();
    const model = guardChatModel(
      createOpenAiChatModel({
        baseUrl: server.url,
        apiKey: 'k',
        model: 'stalled',
        reasoningEffort: null,
        temperature: 0,
        structuredOutputs: 'strict',
        maxTokensKey: 'max_tokens',
        timeoutMs: 60_000,
        maxRetries: 2,
      }),
      { deadlineMs: 1200, lifetime: lifetime.signal },
    );
    const request = {
      messages: [{ role: 'user' as const, content: 'hello' }],
      purpose: 'general' as const,
      maxTokens: 8,
      responseFormat: { type: 'text' as const },
    };
    const { ms, result } = await elapsed(() => model.complete(request));
    expect(result.status).toBe('rejected');
    const error = (result as PromiseRejectedResult).reason;
    expect(MemoryError.is(error, 'LLM_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toBe('model "stalled" did not answer within 1200 ms (llm.deadlineMs)');
    expect(ms).toBeGreaterThanOrEqual(1100);
    expect(ms).toBeLessThan(1200 + SLACK_MS);
    expect(model.outcomes).toEqual({ consecutiveFailures: 1, lastErrorCode: 'LLM_UNAVAILABLE' });

    // Closing (the lifetime) ends a call in flight at once, with CLOSED, and is not a model failure.
    const pending = elapsed(() => model.complete(request));
    await until(() => server.chatRequests.length >= 2);
    lifetime.abort();
    const closed = await pending;
    expect(closed.ms).toBeLessThan(SLACK_MS);
    expect(MemoryError.is((closed.result as PromiseRejectedResult).reason, 'CLOSED')).toBe(true);
    expect(model.outcomes.consecutiveFailures).toBe(1);
  });

  it('llm.deadlineMs (?deadline_ms=) bounds flush(); the failure is reported and health is degraded', async () => {
    const memory = stalledMemory('flush', '&deadline_ms=1500');
    expect(memory.config.llm).toMatchObject({ deadlineMs: 1500 });
    const failures: ExtractionFailed[] = [];
    memory.events.on('ExtractionFailed', (e) => failures.push(e));
    expect(await memory.observe(chat('1', ALICE, stampMessage('harbour')))).toMatchObject({
      status: 'accepted',
    });
    const { ms, result } = await elapsed(() => memory.flush());
    expect(result.status).toBe('fulfilled');
    expect(ms).toBeLessThan(1500 + SLACK_MS * 2);
    expect(server.chatRequests.length).toBeGreaterThan(0);
    expect(failures).toEqual([expect.objectContaining({ attempt: 1, errorCode: 'LLM_UNAVAILABLE' })]);
    const health = await memory.ops.health();
    expect(health.status).toBe('degraded');
    expect(health.components).toContainEqual({
      component: 'llm',
      status: 'degraded',
      detail: 'stalled: the last 1 call(s) failed (LLM_UNAVAILABLE)',
    });
    const closed = await elapsed(() => memory.close({ timeoutMs: 2000 }));
    expect(closed.ms).toBeLessThan(2000 + SLACK_MS);
  });

  it('close({ timeoutMs: 2000 }) returns within 3 s with a worker call in flight; flush() ends too', async () => {
    // Default deadline (120 s): only close() can end the call.
    const memory = stalledMemory('close', '', true);
    const failures: ExtractionFailed[] = [];
    memory.events.on('ExtractionFailed', (e) => failures.push(e));
    await memory.observe(chat('2', ALICE, stampMessage('lighthouse')));
    await until(() => server.chatRequests.length > 0);
    const flushing = elapsed(() => memory.flush());
    const { ms, result } = await elapsed(() => memory.close({ timeoutMs: 2000 }));
    expect(result.status).toBe('fulfilled');
    expect(ms).toBeGreaterThanOrEqual(1900);
    expect(ms).toBeLessThan(2000 + SLACK_MS);
    const flushed = await flushing;
    expect(flushed.ms).toBeLessThan(2000 + SLACK_MS);

    // No attempt was charged: the claimed batch returns to the queue when its lease expires
    // (batching.leaseSeconds, 120 s) and then extracts once a model answers.
    expect(failures).toEqual([]);
    const later = new Date(Date.now() + 121_000);
    const again = createMemory(
      { storage: `sqlite://${join(temp.dir, 'close.db')}`, llm: 'heuristic', workers: { enabled: false } },
      { clock: { now: () => later } },
    );
    open.push(again);
    const guildId = chat('x', ALICE, 'x').guildId;
    expect(await again.stats({ guildId })).toMatchObject({ pending: 0, inFlight: 1, deadLetters: 0 });
    expect(await again.flush()).toBeGreaterThan(0);
    expect(await again.stats({ guildId })).toMatchObject({ pending: 0, inFlight: 0, processed: 1 });
  });

  it('close({ drain: false }) aborts at once', async () => {
    const memory = stalledMemory('nodrain', '', true);
    await memory.observe(chat('3', ALICE, stampMessage('compass')));
    await until(() => server.chatRequests.length > 0);
    const { ms } = await elapsed(() => memory.close({ drain: false }));
    expect(ms).toBeLessThan(SLACK_MS);
  });

  it('an embeddings endpoint that never answers does not hold close() either', async () => {
    const memory = createMemory({
      storage: `sqlite://${join(temp.dir, 'embed.db')}`,
      llm: 'heuristic',
      embeddings: `openai://k@127.0.0.1:${server.port}/v1?model=stalled-embed&dimensions=16`,
      workers: { enabled: true, pollIntervalMs: 10 },
      batching: { batchSizeMessages: 1 },
      extraction: { noiseGate: false },
    });
    open.push(memory);
    await memory.observe(chat('4', ALICE, stampMessage('anchor')));
    await until(() => server.embeddingRequests.length > 0);
    const { ms, result } = await elapsed(() => memory.close({ timeoutMs: 1500 }));
    expect(result.status).toBe('fulfilled');
    expect(ms).toBeLessThan(1500 + SLACK_MS);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemory } from '../../src/index.js';
import { type ScriptedOpenAiServer, startScriptedOpenAiServer } from '../../src/testing/index.js';

let server: ScriptedOpenAiServer;
beforeAll(async () => {
  server = await startScriptedOpenAiServer();
});
afterAll(() => server.close());

const llmRow = async (memory: ReturnType<typeof createMemory>) =>
  (await memory.ops.health()).components.find((c) => c.component === 'llm');

describe('ops.health() and the model endpoint (real loopback server)', () => {
  it('reports an LLM that refuses every call as degraded, and ok again after a success', async () => {
    const memory = createMemory({
      storage: 'memory',
      llm: `openai://k@127.0.0.1:${server.port}/v1?model=refuser`,
      workers: { enabled: false },
    });
    expect(await llmRow(memory)).toEqual({ component: 'llm', status: 'ok', detail: 'refuser' });
    server.script({ status: 401 }, { status: 403 });
    for (let i = 0; i < 2; i++) expect((await memory.ops.probeLlm()).ok).toBe(false);
    expect(await llmRow(memory)).toEqual({
      component: 'llm',
      status: 'degraded',
      detail: 'refuser: the last 2 call(s) failed (LLM_UNAVAILABLE)',
    });
    expect((await memory.ops.health()).status).toBe('degraded');
    server.script({ content: 'OK' });
    expect(await memory.ops.probeLlm()).toMatchObject({ ok: true, detail: 'answered' });
    expect(await llmRow(memory)).toEqual({ component: 'llm', status: 'ok', detail: 'refuser' });
    await memory.close({ drain: false });
  });
});

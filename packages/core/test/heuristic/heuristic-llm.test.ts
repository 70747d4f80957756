import { describe, expect, it } from 'vitest';
import { createHeuristicLlm, HEURISTIC_MODEL } from '../../src/adapters/heuristic/index.js';
import { extractionOutputSchema } from '../../src/extraction/extraction-contract.js';
import { commandOutputSchema, reconcileOutputSchema } from '../../src/extraction/task-contracts.js';
import type { ChatRequest, ChatTask } from '../../src/ports/chat-llm.js';
import { batch } from './helpers.js';

const request = (purpose: string, task?: ChatTask): ChatRequest => ({
  messages: [{ role: 'user', content: 'prose the heuristic model ignores' }],
  purpose,
  maxTokens: 500,
  responseFormat: { type: 'json_object' },
  ...(task === undefined ? {} : { task }),
});

describe('createHeuristicLlm', () => {
  const llm = createHeuristicLlm();

  it('is free, offline and named heuristic-v1', async () => {
    const res = await llm.complete(
      request('extraction', { kind: 'extraction', input: batch(['i live in oslo']) }),
    );
    expect(llm.model).toBe(HEURISTIC_MODEL);
    expect(res).toMatchObject({ model: 'heuristic-v1', promptTokens: 0, completionTokens: 0, costUsd: 0 });
    const out = extractionOutputSchema.parse(JSON.parse(res.text));
    expect(out.operations.map((o) => o.text)).toEqual(['Alice lives in Oslo']);
  });

  it('answers reconcile tasks with decisions JSON', async () => {
    const input = {
      collisions: [
        {
          candidateIndex: 0,
          subjectName: 'Alice',
          text: 'Alice moved to Seattle',
          category: 'personal',
          existing: [{ id: '0', text: 'Alice lives in Omaha', category: 'personal' }],
        },
      ],
    };
    const res = await llm.complete(request('reconcile', { kind: 'reconcile', input }));
    const out = reconcileOutputSchema.parse(JSON.parse(res.text));
    expect(out.decisions[0]).toMatchObject({ kind: 'INVALIDATE', targetId: '0' });
  });

  it('answers summarize tasks with plain text', async () => {
    const input = { subjectName: 'Alice', facts: ['Alice lives in Oslo', 'Alice plays chess'], maxWords: 20 };
    const res = await llm.complete(request('summarize', { kind: 'summarize', input }));
    expect(res.text).toBe('Alice lives in Oslo and plays chess.');
  });

  it('answers classify_command tasks from { text } or a bare string', async () => {
    for (const input of [{ text: 'remember that I like tea' }, 'remember that I like tea']) {
      const res = await llm.complete(request('classify_command', { kind: 'classify_command', input }));
      expect(commandOutputSchema.parse(JSON.parse(res.text))).toEqual({
        action: 'remember',
        targetText: 'I like tea',
        confidence: 0.85,
      });
    }
  });

  it.each([
    ['extraction', '{"operations":[]}'],
    ['reconcile', '{"decisions":[]}'],
    ['summarize', ''],
    ['classify_command', '{"action":"none","targetText":"","confidence":0}'],
    ['general', '{"operations":[]}'],
  ])('without a task (%s) it returns the empty answer, never throws', async (purpose, text) => {
    const res = await llm.complete(request(purpose));
    expect(res.text).toBe(text);
  });

  it.each([
    ['extraction', { kind: 'extraction', input: { scope: 'member' } }, '{"operations":[]}'],
    ['reconcile', { kind: 'reconcile', input: null }, '{"decisions":[]}'],
    ['summarize', { kind: 'summarize', input: 42 }, ''],
    [
      'classify_command',
      { kind: 'classify_command', input: [] },
      '{"action":"none","targetText":"","confidence":0}',
    ],
    ['repair', { kind: 'repair', input: {} }, '{"operations":[]}'],
  ] as const)('a malformed %s input yields the empty answer', async (purpose, task, text) => {
    const res = await llm.complete(request(purpose, task as ChatTask));
    expect(res.text).toBe(text);
  });

  it('is deterministic', async () => {
    const task: ChatTask = {
      kind: 'extraction',
      input: batch(['i live in seattle and work at acme', '@Bob loves hiking']),
    };
    const a = await llm.complete(request('extraction', task));
    const b = await createHeuristicLlm().complete(request('extraction', task));
    expect(a.text).toBe(b.text);
  });

  it('rejects an already-aborted request', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(llm.complete({ ...request('extraction'), signal: controller.signal })).rejects.toBeDefined();
  });
});

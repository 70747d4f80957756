import { describe, expect, it } from 'vitest';
import { createInMemoryStore, createMemory, type LogEvent } from '../../src/index.js';
import { ANALYZER_ID } from '../../src/text/analyze.js';

const config = { storage: 'memory', llm: null, workers: { enabled: false } } as const;

describe('the analyzer id in store metadata', () => {
  it('is recorded on the first start of a store', async () => {
    const store = createInMemoryStore();
    const memory = createMemory(config, { store });
    await memory.start();
    expect(await store.meta.getMeta('analyzer.id')).toBe(ANALYZER_ID);
    await memory.close();
  });

  it('a different recorded id is kept and reported to the logger on start', async () => {
    const store = createInMemoryStore();
    await store.setup();
    await store.meta.setMeta('analyzer.id', 'en-porter2.9');
    const events: LogEvent[] = [];
    const memory = createMemory(config, { store, logger: (e) => events.push(e) });
    await memory.start();
    expect(await store.meta.getMeta('analyzer.id')).toBe('en-porter2.9');
    expect(events.filter((e) => e.event === 'store.analyzer_changed')).toEqual([
      {
        level: 'warn',
        event: 'store.analyzer_changed',
        data: { recorded: 'en-porter2.9', current: ANALYZER_ID },
      },
    ]);
    await memory.close();
  });
});

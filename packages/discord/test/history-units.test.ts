import { createInMemoryStore, createMemory } from '@permafrost/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { acquireImport, runningImport } from '../src/commands/import-lock.js';
import { ProgressMessage } from '../src/commands/import-progress.js';
import { compareIds, cursorKey, readCursor, writeCursor } from '../src/history/history-cursor.js';
import { RequestPacer, sleep } from '../src/history/request-pacer.js';

const GUILD = '500000000000000001';
const memory = () => createMemory({ storage: 'memory', workers: { enabled: false } });

describe('ProgressMessage', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('edits at most once per interval, one edit at a time, and shows the final text after the interval', async () => {
    const sent: [number, string][] = [];
    const progress = new ProgressMessage(async (text) => void sent.push([Date.now(), text]), 3_000);
    const t0 = Date.now();
    progress.update('a');
    progress.update('b'); // dropped: too soon
    await vi.advanceTimersByTimeAsync(1_000);
    progress.update('c'); // dropped
    await vi.advanceTimersByTimeAsync(2_000);
    progress.update('d');
    const finished = progress.finish('done');
    await vi.advanceTimersByTimeAsync(3_000);
    expect(await finished).toBe(true);
    expect(sent).toEqual([
      [t0, 'a'],
      [t0 + 3_000, 'd'],
      [t0 + 6_000, 'done'],
    ]);
  });

  it('stops editing once the interaction token is about to expire, and survives a failed edit', async () => {
    const sent: string[] = [];
    const progress = new ProgressMessage(async (text) => {
      sent.push(text);
      if (text === 'a') throw new Error('gone');
    }, 1_000);
    progress.update('a');
    await vi.advanceTimersByTimeAsync(14 * 60_000);
    progress.update('late');
    expect(progress.editable).toBe(false);
    expect(await progress.finish('done')).toBe(false);
    expect(sent).toEqual(['a']);
  });
});

describe('the import lock', () => {
  it('lets one import per guild run, in this process and across processes (claims), until released', async () => {
    const store = createInMemoryStore(); // one store, two bot processes
    const config = { storage: 'memory', workers: { enabled: false } } as const;
    const a = createMemory(config, { store, instanceId: 'process-a' });
    const b = createMemory(config, { store, instanceId: 'process-b' });
    const lease = await acquireImport(a, GUILD);
    expect(lease).not.toBeNull();
    expect(runningImport(a, GUILD)).toEqual({ fetched: 0 });
    expect(await acquireImport(a, GUILD)).toBeNull();
    expect(await acquireImport(b, GUILD)).toBeNull();
    expect(runningImport(b, GUILD)).toBeUndefined();
    const elsewhere = await acquireImport(b, '500000000000000002');
    expect(elsewhere).not.toBeNull();
    await lease?.release();
    await lease?.release();
    expect(runningImport(a, GUILD)).toBeUndefined();
    const next = await acquireImport(b, GUILD);
    expect(next).not.toBeNull();
    await next?.release();
    await elsewhere?.release();
    await a.close();
    await b.close();
  });
});

describe('RequestPacer', () => {
  it('spaces turns by 1000 / maxPerSecond ms, counts them, and stops on abort', async () => {
    const controller = new AbortController();
    const pacer = new RequestPacer(50, controller.signal);
    const t0 = performance.now();
    for (let i = 0; i < 4; i++) expect(await pacer.turn()).toBe(true);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(55);
    expect(pacer.count).toBe(4);
    controller.abort();
    expect(await pacer.turn()).toBe(false);
    expect(pacer.count).toBe(4);
    expect(await sleep(10_000, controller.signal)).toBe(false);
    expect(await new RequestPacer(Number.POSITIVE_INFINITY).turn()).toBe(true);
  });
});

describe('the channel cursor', () => {
  it('round-trips through memory.cursors and reads anything malformed as none', async () => {
    const m = memory();
    const cursor = { top: '300', bottom: '100', complete: false, gap: { top: '500', bottom: '400' } };
    await writeCursor(m, GUILD, '42', cursor);
    expect(await readCursor(m, GUILD, '42')).toEqual(cursor);
    for (const raw of ['not json', '{"v":2,"top":"1","bottom":"1","complete":true}', '{"v":1,"top":"x"}'])
      await m.cursors.set({ guildId: GUILD, key: cursorKey('43'), value: raw }).then(async () => {
        expect(await readCursor(m, GUILD, '43')).toBeNull();
      });
    expect([compareIds('9', '10'), compareIds('10', '10'), compareIds('18446744073709551615', '1')]).toEqual([
      -1, 0, 1,
    ]);
    await m.close();
  });
});

import { join } from 'node:path';
import { createMemory, MemoryError } from '@permafrost/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChild } from './support/children.js';
import { ensureBuilt, tempDir } from './support/paths.js';

/**
 * Host code (issue #18 item 10): the logger is validated in createMemory, and every call into the
 * host's code — logger, event handlers, reranker — is isolated: one that throws or rejects never
 * crashes the process (run in a child: an uncaught error would kill it) and never changes a receipt.
 */

const tmp = tempDir('host-code');
beforeAll(() => ensureBuilt(), 120_000);
afterAll(() => tmp.cleanup());

interface Done {
  readonly receipts: readonly { status: string; reason: string | null }[];
  readonly facts: readonly string[];
  readonly warnings: readonly string[];
  readonly deadLetters: number;
  readonly logged: number;
  readonly handled: number;
  readonly calls: number;
}

async function run(mode: 'hostile' | 'quiet'): Promise<{ code: number | null; stderr: string; done: Done }> {
  const child = startChild('hostile-host', { path: join(tmp.dir, `${mode}.db`), mode });
  const exit = await child.exit;
  const done = exit.messages.find((m) => (m as { event?: string }).event === 'done') as Done;
  return { code: exit.code, stderr: exit.stderr, done };
}

describe('host code cannot break the host', () => {
  it('a logger that is not a function is CONFIG_INVALID in createMemory, naming the key', () => {
    for (const logger of ['console', 42, {}, { log: () => {} }]) {
      let error: unknown;
      try {
        createMemory({ storage: 'memory' }, { logger } as never);
      } catch (e) {
        error = e;
      }
      expect(MemoryError.is(error, 'CONFIG_INVALID')).toBe(true);
      expect((error as MemoryError).issues.map((i) => i.path.join('.'))).toEqual(['overrides.logger']);
      expect((error as MemoryError).message).toContain('overrides.logger');
    }
    expect(() => createMemory({ storage: 'memory' }, { reranker: { rank: () => [] } } as never)).toThrow(
      /overrides\.reranker/,
    );
    expect(() => createMemory({ storage: 'memory' }, { logger: null } as never)).not.toThrow();
  });

  it('a throwing logger, throwing handlers and a throwing reranker: the process lives and receipts match a quiet host', async () => {
    const [hostile, quiet] = [await run('hostile'), await run('quiet')];
    expect(hostile.stderr).toBe('');
    expect(hostile.code).toBe(0);
    expect(quiet.code).toBe(0);
    // Host code really ran on the paths that call it: logger, handlers, the model and the reranker.
    expect(hostile.done.logged).toBeGreaterThan(0);
    expect(hostile.done.handled).toBeGreaterThan(0);
    expect(hostile.done.calls).toBeGreaterThan(0);
    expect(hostile.done.receipts).toEqual(quiet.done.receipts);
    expect(hostile.done.receipts.every((r) => r.status === 'accepted')).toBe(true);
    expect(hostile.done.deadLetters).toBe(quiet.done.deadLetters);
    expect(hostile.done.facts).toEqual(quiet.done.facts);
    expect(hostile.done.facts).toContain('Member 0 keeps bees in Lisbon');
  }, 90_000);
});

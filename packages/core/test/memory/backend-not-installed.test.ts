import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemory, ErrorCode, MemoryError } from '../../src/index.js';
import { getStoreFactory } from '../../src/internal.js';

// Core does not depend on the store packages or on embeddings-local, so from core's own folder
// (and from the repository root, the working directory) none of them resolves: exactly what an
// application sees when it installed @permafrost/core alone.
const dir = mkdtempSync(join(tmpdir(), 'permafrost-backend-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function startError(config: Parameters<typeof createMemory>[0]): Promise<MemoryError> {
  const memory = createMemory(config);
  try {
    await memory.start();
  } catch (error) {
    return error as MemoryError;
  } finally {
    await memory.close({ drain: false }).catch(() => undefined);
  }
  throw new Error('start() succeeded without the backend package');
}

describe('a backend package that is not installed', () => {
  it.each([
    ['sqlite', `sqlite://${join(dir, 'memory.db')}`, '@permafrost/store-sqlite'],
    ['mongodb', 'mongodb://127.0.0.1:9/permafrost', '@permafrost/store-mongo'],
  ])(
    '%s storage: start() fails with BACKEND_NOT_INSTALLED and the install command',
    async (scheme, url, pkg) => {
      expect(getStoreFactory(scheme)).toBeUndefined();
      const error = await startError({ storage: url, llm: null, workers: { enabled: false } });
      expect(error).toBeInstanceOf(MemoryError);
      expect(error.code).toBe(ErrorCode.BACKEND_NOT_INSTALLED);
      expect(error.message).toContain(`npm install ${pkg}`);
      expect(error.message).not.toContain('ERR_MODULE_NOT_FOUND');
      expect((error.cause as { code?: string }).code).toBe('ERR_MODULE_NOT_FOUND');
      expect(readdirSync(dir)).toEqual([]);
    },
  );

  it('local embeddings: start() fails with BACKEND_NOT_INSTALLED naming @permafrost/embeddings-local', async () => {
    const error = await startError({
      storage: 'memory',
      llm: null,
      embeddings: 'local',
      workers: { enabled: false },
    });
    expect(error).toBeInstanceOf(MemoryError);
    expect(error.code).toBe(ErrorCode.BACKEND_NOT_INSTALLED);
    expect(error.message).toContain('npm install @permafrost/embeddings-local');
  });
});

/**
 * The two systems the mem0 suite compares, set up alike: mem0 OSS (`mem0ai/oss`) loaded offline
 * (telemetry off, private temp dirs, a loopback stub LLM) with our hashing embedder handed over as
 * a langchain-style object, and a Permafrost memory on a SQLite file with the same embedder.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createHashingEmbedder, createMemory, type Memory } from '@permafrost/core';

export const DIMS = 256;

export type Mem0 = {
  add(messages: { role: string; content: string }[], opts: Record<string, unknown>): Promise<unknown>;
  search(
    query: string,
    opts: Record<string, unknown>,
  ): Promise<{ results: { id: string; memory: string }[] }>;
};
export type Mem0Ctor = new (config: Record<string, unknown>) => Mem0;

function langchainEmbedder() {
  const h = createHashingEmbedder({ dimensions: DIMS });
  return {
    id: h.id,
    embedQuery: async (t: string) => Array.from((await h.embed([t]))[0] as Float32Array),
    embedDocuments: async (ts: string[]) => (await h.embed(ts)).map((v) => Array.from(v)),
  };
}

export async function loadMem0(dir: string): Promise<Mem0Ctor> {
  process.env['MEM0_TELEMETRY'] = 'false';
  process.env['MEM0_DIR'] = join(dir, '.mem0');
  mkdirSync(join(dir, '.mem0'), { recursive: true });
  const spec = 'mem0ai/oss';
  const mod = (await import(spec)) as { Memory: Mem0Ctor };
  return mod.Memory;
}

export function newMem0(Ctor: Mem0Ctor, dir: string, name: string, llmUrl: string): Mem0 {
  mkdirSync(dir, { recursive: true });
  return new Ctor({
    embedder: { provider: 'langchain', config: { model: langchainEmbedder(), embeddingDims: DIMS } },
    vectorStore: {
      provider: 'memory',
      config: { collectionName: 'memories', dimension: DIMS, dbPath: join(dir, `${name}-vectors.db`) },
    },
    llm: { provider: 'openai', config: { apiKey: 'stub', baseURL: llmUrl, model: 'stub-model' } },
    historyStore: { provider: 'sqlite', config: { historyDbPath: join(dir, `${name}-history.db`) } },
  });
}

export function newPermafrost(dir: string, name: string): Memory {
  return createMemory({
    storage: `sqlite://${join(dir, `${name}.db`)}`,
    access: { requireAudience: false },
    llm: null,
    embeddings: 'hashing',
    workers: { enabled: false },
  });
}

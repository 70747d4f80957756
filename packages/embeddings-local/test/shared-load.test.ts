import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalEmbedder } from '@permafrost/embeddings-local';
import { describe, expect, it, vi } from 'vitest';

const TINY_ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'tiny-model');

// Counts onnxruntime sessions created, passing every call to the real onnxruntime-node.
const counter = vi.hoisted(() => ({ sessions: 0 }));
vi.mock('onnxruntime-node', async (importOriginal) => {
  const mod = await importOriginal<
    typeof import('onnxruntime-node') & { default?: typeof import('onnxruntime-node') }
  >();
  const ort = mod.default ?? mod;
  const InferenceSession = {
    create: (...args: Parameters<typeof ort.InferenceSession.create>) => {
      counter.sessions++;
      return ort.InferenceSession.create(...args);
    },
  };
  const wrapped = { ...ort, InferenceSession };
  return { ...wrapped, default: wrapped };
});

describe('lazy loading', () => {
  it('concurrent first calls share one model load', async () => {
    const e = createLocalEmbedder({ modelPath: TINY_ROOT });
    expect(counter.sessions).toBe(0);
    const results = await Promise.all([
      e.embed(['hello world']),
      e.embed(['the quick brown fox']),
      e.load(),
      e.embed(['good bye']),
    ]);
    expect(counter.sessions).toBe(1);
    expect(results[2]).toBe(8);
    await e.embed(['again']);
    expect(counter.sessions).toBe(1);
    await e.close();
    const other = createLocalEmbedder({ modelPath: TINY_ROOT });
    await other.load();
    expect(counter.sessions).toBe(2); // one load per embedder instance
    await other.close();
  });
});

import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheEmbedder, type Embedder, ErrorCode, MemoryError } from '@permafrost/core';
import { cosine } from '@permafrost/core/store';
import {
  createEmbedderFromConfig,
  createLocalEmbedder,
  defaultModelPath,
  requiredModelFiles,
} from '@permafrost/embeddings-local';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
/** Models root in the transformers.js layout: <root>/Xenova/all-MiniLM-L6-v2/… (q8 + fp32 files). */
const TINY_ROOT = path.join(fixtures, 'tiny-model');
const TINY_FOLDER = path.join(TINY_ROOT, 'Xenova', 'all-MiniLM-L6-v2');
/** A model folder given directly; fp32 only (onnx/model.onnx); its graph also takes token_type_ids. */
const TINY_TT = path.join(fixtures, 'tiny-model-tt');

const TEXTS = [
  'hello world',
  'the quick brown fox',
  'the cat sat on the mat',
  'good bye, discord bot!',
  'search a message?',
];

const norm = (v: Float32Array): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

function expectSameVectors(a: readonly Float32Array[], b: readonly Float32Array[], tolerance = 1e-6): void {
  expect(a.length).toBe(b.length);
  a.forEach((v, i) => {
    const w = b[i] as Float32Array;
    expect(v.length).toBe(w.length);
    for (let j = 0; j < v.length; j++)
      expect(Math.abs((v[j] as number) - (w[j] as number))).toBeLessThanOrEqual(tolerance);
  });
}

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    expect(MemoryError.is(error)).toBe(true);
    const e = error as MemoryError;
    return { code: e.code, message: e.message };
  }
  throw new Error('expected a rejection');
}

const open: Embedder[] = [];
function track<T extends Embedder>(e: T): T {
  open.push(e);
  return e;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
  vi.unstubAllEnvs();
});

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'pf-embed-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('createLocalEmbedder on the tiny fixture model', () => {
  it('loads lazily: nothing is read until the first embed, then dimensions are known', async () => {
    const e = track(createLocalEmbedder({ modelPath: TINY_ROOT }));
    expect(e.id).toBe('local-all-MiniLM-L6-v2-q8');
    expect(e.dimensions).toBeUndefined();
    expect(e.modelFolder).toBeUndefined();
    expect(await e.embed([])).toEqual([]);
    expect(e.dimensions).toBeUndefined(); // an empty call does not load
    const [v] = await e.embed(['hello world']);
    expect(e.dimensions).toBe(8);
    expect(v).toBeInstanceOf(Float32Array);
    expect(v?.length).toBe(8);
    expect(e.modelFolder).toBe(TINY_FOLDER);
  });

  it('a missing folder does not fail at creation, only on first use', async () => {
    const e = track(createLocalEmbedder({ modelPath: path.join(scratch, 'nowhere') }));
    expect(e.dimensions).toBeUndefined();
    await expect(e.embed(['x'])).rejects.toBeInstanceOf(MemoryError);
  });

  it('load() resolves to the dimensions and is shared by concurrent first calls', async () => {
    const e = track(createLocalEmbedder({ modelPath: TINY_ROOT }));
    const [d1, d2, vecs] = await Promise.all([e.load(), e.load(), e.embed(TEXTS)]);
    expect(d1).toBe(8);
    expect(d2).toBe(8);
    expect(vecs).toHaveLength(TEXTS.length);
    expect(await e.load()).toBe(8);
  });

  it('returns one unit-length vector per text, in order', async () => {
    const e = track(createLocalEmbedder({ modelPath: TINY_ROOT }));
    const vecs = await e.embed(TEXTS);
    expect(vecs).toHaveLength(TEXTS.length);
    for (const v of vecs) expect(norm(v)).toBeCloseTo(1, 5);
    const reversed = await e.embed([...TEXTS].reverse());
    expectSameVectors(reversed, [...vecs].reverse());
    // different texts give different vectors
    expect(cosine(vecs[0] as Float32Array, vecs[1] as Float32Array)).toBeLessThan(0.99);
  });

  it('batching does not change the vectors (batch 2 over 5 texts = unbatched)', async () => {
    const batched = track(createLocalEmbedder({ modelPath: TINY_ROOT, batchSize: 2 }));
    const whole = track(createLocalEmbedder({ modelPath: TINY_ROOT, batchSize: 32 }));
    const single = track(createLocalEmbedder({ modelPath: TINY_ROOT, batchSize: 1 }));
    const a = await batched.embed(TEXTS);
    const b = await whole.embed(TEXTS);
    const c = await single.embed(TEXTS);
    expectSameVectors(a, b);
    expectSameVectors(c, b);
  });

  it('is deterministic across calls and instances', async () => {
    const e1 = track(createLocalEmbedder({ modelPath: TINY_ROOT }));
    const e2 = track(createLocalEmbedder({ modelPath: TINY_FOLDER }));
    const first = await e1.embed(TEXTS);
    expectSameVectors(await e1.embed(TEXTS), first, 0);
    expectSameVectors(await e2.embed(TEXTS), first, 0);
  });

  it('handles duplicates, empty strings and unknown words', async () => {
    const e = track(createLocalEmbedder({ modelPath: TINY_ROOT }));
    const [a, b, empty, unknown] = await e.embed(['hello world', 'hello world', '', 'zzz qqq']);
    expectSameVectors([a as Float32Array], [b as Float32Array], 0);
    expect(norm(empty as Float32Array)).toBeCloseTo(1, 5);
    expect(norm(unknown as Float32Array)).toBeCloseTo(1, 5);
  });

  it('truncates long texts to the token limit (tokenizer model_max_length or maxTokens)', async () => {
    const words = (n: number) =>
      Array.from({ length: n }, (_, i) => ['cat', 'dog', 'fox', 'mat'][i % 4]).join(' ');
    const e = track(createLocalEmbedder({ modelPath: TINY_ROOT })); // fixture model_max_length: 16
    const [long, prefix, shorter] = await e.embed([words(200), words(15), words(10)]);
    expectSameVectors([long as Float32Array], [prefix as Float32Array]);
    expect(cosine(long as Float32Array, shorter as Float32Array)).toBeLessThan(0.99999);
    const small = track(createLocalEmbedder({ modelPath: TINY_ROOT, maxTokens: 6 }));
    const [l2, p2] = await small.embed([words(200), words(5)]);
    expectSameVectors([l2 as Float32Array], [p2 as Float32Array]);
  });

  it('feeds token_type_ids when the graph takes them, and reads onnx/model.onnx for dtype fp32', async () => {
    const e = track(createLocalEmbedder({ modelPath: TINY_TT, dtype: 'fp32' }));
    expect(e.id).toBe('local-all-MiniLM-L6-v2-fp32');
    const vecs = await e.embed(TEXTS);
    expect(e.dimensions).toBe(8);
    expect(e.modelFolder).toBe(TINY_TT);
    for (const v of vecs) expect(norm(v)).toBeCloseTo(1, 5);
    // the token-type table shifts every vector, so they differ from the model without it
    const plain = track(createLocalEmbedder({ modelPath: TINY_ROOT, dtype: 'fp32' }));
    const other = await plain.embed(TEXTS);
    expect(cosine(vecs[0] as Float32Array, other[0] as Float32Array)).toBeLessThan(0.9999);
  });

  it('matches transformers.js pipeline("feature-extraction", { pooling: "mean", normalize: true })', async () => {
    const { env, pipeline } = await import('@xenova/transformers');
    const saved = {
      allowRemoteModels: env.allowRemoteModels,
      localModelPath: env.localModelPath,
      useFSCache: env.useFSCache,
    };
    try {
      env.allowRemoteModels = false;
      env.useFSCache = false;
      env.localModelPath = `${TINY_ROOT}/`;
      const extractor = await pipeline('feature-extraction', 'Xenova/all-MiniLM-L6-v2');
      const out = await extractor(TEXTS, { pooling: 'mean', normalize: true });
      const expected = (out.tolist() as number[][]).map((row) => Float32Array.from(row));
      const e = track(createLocalEmbedder({ modelPath: TINY_ROOT }));
      expectSameVectors(await e.embed(TEXTS), expected, 1e-6);
    } finally {
      Object.assign(env, saved);
    }
  });

  it('leaves transformers.js env untouched, so embedders with different folders coexist', async () => {
    const { env } = await import('@xenova/transformers');
    const before = {
      allowRemoteModels: env.allowRemoteModels,
      localModelPath: env.localModelPath,
      useFSCache: env.useFSCache,
    };
    const a = track(createLocalEmbedder({ modelPath: TINY_ROOT }));
    const b = track(createLocalEmbedder({ modelPath: TINY_TT, dtype: 'fp32' }));
    const [va, vb] = await Promise.all([a.embed(TEXTS), b.embed(TEXTS)]);
    expect({
      allowRemoteModels: env.allowRemoteModels,
      localModelPath: env.localModelPath,
      useFSCache: env.useFSCache,
    }).toEqual(before);
    // each one used its own folder: the same as loading it alone
    const aAlone = track(createLocalEmbedder({ modelPath: TINY_ROOT }));
    const bAlone = track(createLocalEmbedder({ modelPath: TINY_TT, dtype: 'fp32' }));
    expectSameVectors(va, await aAlone.embed(TEXTS), 0);
    expectSameVectors(vb, await bAlone.embed(TEXTS), 0);
    expect(a.modelFolder).toBe(TINY_FOLDER);
    expect(b.modelFolder).toBe(TINY_TT);
  });

  it('close() releases the model; later calls fail with CLOSED; close is idempotent', async () => {
    const e = createLocalEmbedder({ modelPath: TINY_ROOT });
    await e.embed(['hello']);
    await e.close();
    await e.close();
    expect(e.dimensions).toBeUndefined();
    expect((await codeOf(e.embed(['hello']))).code).toBe(ErrorCode.CLOSED);
    expect((await codeOf(e.load())).code).toBe(ErrorCode.CLOSED);
    const during = createLocalEmbedder({ modelPath: TINY_ROOT });
    const loading = during.load();
    await during.close();
    await loading.catch(() => undefined);
    expect(during.dimensions).toBeUndefined();
  });
});

describe('model folder errors', () => {
  it('a missing folder fails with MODEL_NOT_FOUND naming the expected files and paths', async () => {
    const root = path.join(scratch, 'empty-root');
    const e = track(createLocalEmbedder({ modelPath: root }));
    const { code, message } = await codeOf(e.embed(['some user text']));
    expect(code).toBe(ErrorCode.MODEL_NOT_FOUND);
    for (const file of requiredModelFiles('q8')) expect(message).toContain(file);
    expect(message).toContain(path.join(root, 'Xenova', 'all-MiniLM-L6-v2'));
    expect(message).toContain('fetch-model');
    expect(message).not.toContain('some user text');
  });

  it('an incomplete folder names the missing file; a later call retries after it appears', async () => {
    const folder = path.join(scratch, 'incomplete');
    await cp(TINY_FOLDER, folder, { recursive: true });
    await rm(path.join(folder, 'tokenizer.json'));
    const e = track(createLocalEmbedder({ modelPath: folder }));
    const { code, message } = await codeOf(e.load());
    expect(code).toBe(ErrorCode.MODEL_NOT_FOUND);
    expect(message).toContain('missing tokenizer.json');
    expect(message).toContain(folder);
    await cp(path.join(TINY_FOLDER, 'tokenizer.json'), path.join(folder, 'tokenizer.json'));
    expect(await e.load()).toBe(8);
  });

  it('dtype q8 on an fp32-only folder points at the fp32 file', async () => {
    const e = track(createLocalEmbedder({ modelPath: TINY_TT }));
    const { code, message } = await codeOf(e.load());
    expect(code).toBe(ErrorCode.MODEL_NOT_FOUND);
    expect(message).toContain('onnx/model_quantized.onnx');
    expect(message).toContain("dtype: 'fp32'");
  });

  it('a corrupt ONNX file or JSON file fails with MODEL_NOT_FOUND and a cause', async () => {
    const folder = path.join(scratch, 'corrupt');
    await cp(TINY_FOLDER, folder, { recursive: true });
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(folder, 'onnx', 'model_quantized.onnx'), 'not an onnx file');
    const e = track(createLocalEmbedder({ modelPath: folder }));
    const err = await e.load().catch((x: unknown) => x);
    expect(MemoryError.is(err, ErrorCode.MODEL_NOT_FOUND)).toBe(true);
    expect((err as MemoryError).cause).toBeDefined();
    await writeFile(path.join(folder, 'config.json'), '{ nope');
    const e2 = track(createLocalEmbedder({ modelPath: folder }));
    const err2 = await e2.load().catch((x: unknown) => x);
    expect(MemoryError.is(err2, ErrorCode.MODEL_NOT_FOUND)).toBe(true);
    expect((err2 as MemoryError).message).toContain('config.json');
  });

  it('rejects bad options with CONFIG_INVALID and bad input with SCHEMA_INVALID', async () => {
    const bad = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return (error as MemoryError).code;
      }
      return 'no error';
    };
    expect(bad(() => createLocalEmbedder({ modelPath: TINY_ROOT, batchSize: 0 }))).toBe(
      ErrorCode.CONFIG_INVALID,
    );
    expect(bad(() => createLocalEmbedder({ modelPath: TINY_ROOT, model: '../etc' }))).toBe(
      ErrorCode.CONFIG_INVALID,
    );
    expect(bad(() => createLocalEmbedder({ modelPath: TINY_ROOT, model: '/abs' }))).toBe(
      ErrorCode.CONFIG_INVALID,
    );
    expect(bad(() => createLocalEmbedder({ modelPath: TINY_ROOT, dtype: 'q4' as 'q8' }))).toBe(
      ErrorCode.CONFIG_INVALID,
    );
    expect(bad(() => createLocalEmbedder({ modelPath: ' ' }))).toBe(ErrorCode.CONFIG_INVALID);
    const e = track(createLocalEmbedder({ modelPath: TINY_ROOT }));
    expect((await codeOf(e.embed([1 as unknown as string]))).code).toBe(ErrorCode.SCHEMA_INVALID);
  });

  it('accepts owner/name model names (<root>/<owner>/<name>)', async () => {
    const e = track(createLocalEmbedder({ modelPath: TINY_ROOT, model: 'Xenova/all-MiniLM-L6-v2' }));
    expect(await e.load()).toBe(8);
    expect(e.modelFolder).toBe(TINY_FOLDER);
  });
});

describe('default model path', () => {
  it('PERMAFROST_MODEL_PATH, then PERMAFROST_CACHE/models, then XDG_CACHE_HOME or ~/.cache', () => {
    expect(defaultModelPath({ PERMAFROST_MODEL_PATH: '/m', PERMAFROST_CACHE: '/c' })).toBe('/m');
    expect(defaultModelPath({ PERMAFROST_CACHE: '/c' })).toBe(path.join('/c', 'models'));
    expect(defaultModelPath({ XDG_CACHE_HOME: '/x' })).toBe(path.join('/x', 'permafrost', 'models'));
    expect(defaultModelPath({})).toMatch(/[/\\]\.cache[/\\]permafrost[/\\]models$/);
  });
});

describe('createEmbedderFromConfig (the core integration contract)', () => {
  it('is exported by name from the package entry and builds a working embedder', async () => {
    // what core does: a dynamic import, then the export looked up by this exact name
    const exportName = 'createEmbedderFromConfig';
    const mod = (await import('@permafrost/embeddings-local')) as Record<string, unknown>;
    expect(typeof mod[exportName]).toBe('function');
    const e = track(createEmbedderFromConfig({ modelPath: TINY_ROOT, model: 'all-MiniLM-L6-v2' }));
    expect(e.dimensions).toBeUndefined();
    const [v] = await e.embed(['hello world']);
    expect(v?.length).toBe(8);
    expect(e.dimensions).toBe(8);
    expect(e.id).toBe('local-all-MiniLM-L6-v2-q8');
  });

  it('modelPath null uses the default path (PERMAFROST_MODEL_PATH)', async () => {
    vi.stubEnv('PERMAFROST_MODEL_PATH', TINY_ROOT);
    const e = track(createEmbedderFromConfig({ modelPath: null, model: 'all-MiniLM-L6-v2' }));
    expect(await e.load()).toBe(8);
    expect(e.modelFolder).toBe(TINY_FOLDER);
  });

  it('modelPath null with no model installed at the default path is MODEL_NOT_FOUND', async () => {
    vi.stubEnv('PERMAFROST_MODEL_PATH', path.join(scratch, 'no-models-here'));
    const e = track(createEmbedderFromConfig({ modelPath: null, model: 'all-MiniLM-L6-v2' }));
    expect((await codeOf(e.load())).code).toBe(ErrorCode.MODEL_NOT_FOUND);
  });
});

describe('with core cacheEmbedder', () => {
  it('only new texts reach the local embedder; cached vectors are identical', async () => {
    const local = track(createLocalEmbedder({ modelPath: TINY_ROOT, batchSize: 2 }));
    const seen: string[][] = [];
    const counting: Embedder = {
      get id() {
        return local.id;
      },
      get dimensions() {
        return local.dimensions;
      },
      embed: async (texts) => {
        seen.push([...texts]);
        return local.embed(texts);
      },
      close: () => local.close(),
    };
    const cached = cacheEmbedder(counting, { maxBytes: 1024 * 1024 });
    expect(cached.id).toBe('local-all-MiniLM-L6-v2-q8');
    const first = await cached.embed(TEXTS.slice(0, 3));
    expect(cached.dimensions).toBe(8);
    const second = await cached.embed([...TEXTS, TEXTS[0] as string]);
    expect(seen).toEqual([TEXTS.slice(0, 3), TEXTS.slice(3)]);
    expectSameVectors(second.slice(0, 3), first, 0);
    expectSameVectors(second, [...(await local.embed(TEXTS)), ...(await local.embed([TEXTS[0] as string]))]);
    await cached.embed(TEXTS);
    expect(seen).toHaveLength(2);
    expect(cached.stats()).toMatchObject({ misses: 5, size: 5 });
  });
});

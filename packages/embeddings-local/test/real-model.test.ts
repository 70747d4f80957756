import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHashingEmbedder, type Embedder } from '@permafrost/core';
import { dot } from '@permafrost/core/internal';
import {
  candidateFolders,
  createLocalEmbedder,
  DEFAULT_MODEL,
  type LocalEmbedder,
  requiredModelFiles,
} from '@permafrost/embeddings-local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Runs against the real all-MiniLM-L6-v2 installed by scripts/fetch-model. The model is selected by
 * PERMAFROST_MODEL_PATH (`npm test` fetches it and sets it) or by PERMAFROST_REQUIRE_MODEL=1; a
 * selected model that is missing fails the file. Without either, the tests below are reported as
 * skipped (a plain `vitest run` on a machine without the model).
 */
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const readEnv = (name: string): string | undefined => process.env[name];
const modelPath = readEnv('PERMAFROST_MODEL_PATH');
const selected = (modelPath !== undefined && modelPath !== '') || readEnv('PERMAFROST_REQUIRE_MODEL') === '1';
const present =
  modelPath !== undefined &&
  modelPath !== '' &&
  candidateFolders(path.resolve(modelPath), DEFAULT_MODEL).some((folder) =>
    requiredModelFiles('q8').every((file) => existsSync(path.join(folder, file))),
  );

if (selected && !present) {
  describe('real all-MiniLM-L6-v2 model', () => {
    it('is installed where PERMAFROST_MODEL_PATH points', () => {
      throw new Error(
        `no model at PERMAFROST_MODEL_PATH=${modelPath ?? '(unset)'}: ` +
          `expected ${requiredModelFiles('q8').join(', ')} in <path>/Xenova/${DEFAULT_MODEL}/. ` +
          'Run scripts/fetch-model and export the PERMAFROST_MODEL_PATH it prints.',
      );
    });
  });
}

const PAIRS = JSON.parse(readFileSync(path.join(fixtures, 'paraphrase-pairs.json'), 'utf8')) as [
  string,
  string,
][];
const REFERENCE = JSON.parse(readFileSync(path.join(fixtures, 'minilm-fp32-reference.json'), 'utf8')) as {
  sentences: string[];
  vectors: number[][];
};

interface Scores {
  paraphrase: number[];
  unrelatedMean: number;
  recallAt1: number;
  mrr: number;
  worstRank: number;
}

/** Cosines of each pair, and of every a_i against every other pair's b_j; ranks of b_i among all b. */
async function score(embedder: Embedder): Promise<Scores> {
  const a = await embedder.embed(PAIRS.map((p) => p[0]));
  const b = await embedder.embed(PAIRS.map((p) => p[1]));
  const paraphrase: number[] = [];
  let unrelatedSum = 0;
  let unrelatedCount = 0;
  let hits = 0;
  let rr = 0;
  let worstRank = 1;
  a.forEach((ai, i) => {
    const sims = b.map((bj) => dot(ai, bj));
    const own = sims[i] as number;
    paraphrase.push(own);
    sims.forEach((s, j) => {
      if (j !== i) {
        unrelatedSum += s;
        unrelatedCount++;
      }
    });
    const rank = 1 + sims.filter((s, j) => j !== i && s >= own).length;
    if (rank === 1) hits++;
    rr += 1 / rank;
    worstRank = Math.max(worstRank, rank);
  });
  return {
    paraphrase,
    unrelatedMean: unrelatedSum / unrelatedCount,
    recallAt1: hits / PAIRS.length,
    mrr: rr / PAIRS.length,
    worstRank,
  };
}

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

describe.runIf(present)('real all-MiniLM-L6-v2 model (PERMAFROST_MODEL_PATH)', () => {
  let embedder: LocalEmbedder;
  let local: Scores;

  beforeAll(async () => {
    embedder = createLocalEmbedder({ modelPath: modelPath as string });
    await embedder.load();
    local = await score(embedder);
  });
  afterAll(async () => {
    await embedder?.close();
  });

  it('loads as a 384-dimension embedder', () => {
    expect(PAIRS.length).toBeGreaterThanOrEqual(20);
    expect(embedder.dimensions).toBe(384);
    expect(embedder.id).toBe('local-all-MiniLM-L6-v2-q8');
    expect(embedder.modelFolder).toMatch(/all-MiniLM-L6-v2$/);
  });

  it('reproduces the original fp32 model (independent numpy reference), cosine >= 0.99 per sentence', async () => {
    const vectors = await embedder.embed(REFERENCE.sentences);
    vectors.forEach((v, i) => {
      const ref = Float32Array.from(REFERENCE.vectors[i] as number[]);
      expect(dot(v, ref)).toBeGreaterThanOrEqual(0.99);
    });
  });

  it('returns unit vectors, deterministically, independent of batch size', async () => {
    const texts = PAIRS.flat();
    const first = await embedder.embed(texts);
    for (const v of first) expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 4);
    const again = await embedder.embed(texts);
    again.forEach((v, i) => {
      expect(Array.from(v)).toEqual(Array.from(first[i] as Float32Array));
    });
    const small = createLocalEmbedder({ modelPath: modelPath as string, batchSize: 3 });
    try {
      const batched = await small.embed(texts);
      batched.forEach((v, i) => {
        expect(dot(v, first[i] as Float32Array)).toBeGreaterThan(0.99999);
      });
    } finally {
      await small.close();
    }
  });

  it('every paraphrase pair scores above the mean unrelated pair', () => {
    for (const s of local.paraphrase) expect(s).toBeGreaterThan(local.unrelatedMean);
    expect(mean(local.paraphrase) - local.unrelatedMean).toBeGreaterThan(0.45);
  });

  it('ranks each paraphrase first among all candidates (recall@1 >= 0.9, MRR >= 0.95, never below rank 3)', () => {
    expect(local.recallAt1).toBeGreaterThanOrEqual(0.9);
    expect(local.mrr).toBeGreaterThanOrEqual(0.95);
    expect(local.worstRank).toBeLessThanOrEqual(3);
  });

  it('separates paraphrases clearly better than core hashing embedder', async () => {
    const hashing = await score(createHashingEmbedder());
    // same pairs: higher paraphrase similarity, a wider gap to unrelated pairs, better ranking
    expect(mean(local.paraphrase)).toBeGreaterThan(mean(hashing.paraphrase) + 0.3);
    expect(mean(local.paraphrase) - local.unrelatedMean).toBeGreaterThan(
      mean(hashing.paraphrase) - hashing.unrelatedMean + 0.25,
    );
    const beaten = local.paraphrase.filter((s, i) => s > (hashing.paraphrase[i] as number)).length;
    expect(beaten / PAIRS.length).toBeGreaterThanOrEqual(0.9);
    expect(local.recallAt1).toBeGreaterThan(hashing.recallAt1);
  });
});

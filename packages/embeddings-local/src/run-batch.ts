import { ErrorCode, MemoryError } from '@permafrost/core';
import type { PreTrainedTokenizer } from '@xenova/transformers';
import type { InferenceSession, Tensor as OrtTensor } from 'onnxruntime-node';

export type OrtModule = typeof import('onnxruntime-node');

/** What running the model needs: the tokenizer, the onnxruntime session and its input/output layout. */
export interface RunState {
  readonly tokenizer: PreTrainedTokenizer;
  readonly session: InferenceSession;
  readonly ort: OrtModule;
  readonly outputName: string;
  readonly needsTokenTypes: boolean;
  readonly maxTokens: number;
  /** Expected vector width; 0 while probing it. */
  readonly dimensions: number;
}

/** Tokenizes one batch, runs the model, mean-pools over the attention mask and L2-normalises. */
export async function runBatch(state: RunState, texts: readonly string[]): Promise<Float32Array[]> {
  let feeds: Record<string, OrtTensor>;
  let mask: BigInt64Array;
  let batch: number;
  let seq: number;
  try {
    // No max_length here: with one, transformers.js pads every text to it. The limit is the
    // tokenizer's model_max_length, set to maxTokens when the tokenizer was built.
    const enc = state.tokenizer._call(texts as string[], { padding: true, truncation: true });
    const ids = enc.input_ids as unknown as { data: BigInt64Array; dims: number[] };
    const am = enc.attention_mask as unknown as { data: BigInt64Array; dims: number[] };
    [batch = 0, seq = 0] = ids.dims;
    mask = am.data;
    const shape = [batch, seq];
    let tokenTypes: OrtTensor | undefined;
    if (state.needsTokenTypes) {
      const tt = enc.token_type_ids as unknown as { data: BigInt64Array } | undefined;
      const data = tt && tt.data.length === batch * seq ? tt.data : new BigInt64Array(batch * seq);
      tokenTypes = new state.ort.Tensor('int64', data, shape);
    }
    feeds = {
      input_ids: new state.ort.Tensor('int64', ids.data, shape),
      attention_mask: new state.ort.Tensor('int64', am.data, shape),
      ...(tokenTypes ? { token_type_ids: tokenTypes } : {}),
    };
  } catch (cause) {
    throw new MemoryError(ErrorCode.EMBEDDING_FAILED, 'local embedder: tokenization failed', { cause });
  }

  let hidden: Float32Array;
  let dims: readonly number[];
  try {
    const result = await state.session.run(feeds);
    const output = result[state.outputName];
    if (!output || output.type !== 'float32') throw new TypeError('model output is missing or not float32');
    hidden = output.data as Float32Array;
    dims = output.dims;
  } catch (cause) {
    throw new MemoryError(ErrorCode.EMBEDDING_FAILED, 'local embedder: model run failed', { cause });
  }

  const vectors: Float32Array[] = [];
  if (dims.length === 3 && dims[0] === batch && dims[1] === seq) {
    const width = dims[2] ?? 0;
    const acc = new Float64Array(width);
    for (let b = 0; b < batch; b++) {
      acc.fill(0);
      let count = 0;
      for (let t = 0; t < seq; t++) {
        if (mask[b * seq + t] === 0n) continue;
        count++;
        const base = (b * seq + t) * width;
        for (let h = 0; h < width; h++) acc[h] = (acc[h] as number) + (hidden[base + h] as number);
      }
      vectors.push(normalize(acc, Math.max(count, 1)));
    }
  } else if (dims.length === 2 && dims[0] === batch) {
    // Already pooled (e.g. a `sentence_embedding` output): just normalise.
    const width = dims[1] ?? 0;
    for (let b = 0; b < batch; b++)
      vectors.push(normalize(Float64Array.from(hidden.subarray(b * width, (b + 1) * width)), 1));
  } else {
    throw new MemoryError(
      ErrorCode.EMBEDDING_FAILED,
      `local embedder: unexpected model output shape [${dims.join(', ')}]`,
    );
  }
  if (state.dimensions !== 0 && vectors.some((v) => v.length !== state.dimensions)) {
    throw new MemoryError(
      ErrorCode.EMBEDDING_FAILED,
      'local embedding model returned a vector of another width',
    );
  }
  return vectors;
}

function normalize(sum: Float64Array, count: number): Float32Array {
  let norm = 0;
  for (let i = 0; i < sum.length; i++) {
    const v = (sum[i] as number) / count;
    sum[i] = v;
    norm += v * v;
  }
  const out = new Float32Array(sum.length);
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < sum.length; i++) out[i] = (sum[i] as number) * inv;
  return out;
}

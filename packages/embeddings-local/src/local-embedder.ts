import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Embedder, ErrorCode, MemoryError } from '@permafrost/core';
import type { PreTrainedTokenizer } from '@xenova/transformers';
import type { InferenceSession, Tensor as OrtTensor } from 'onnxruntime-node';
import {
  assertModelName,
  DEFAULT_MODEL,
  defaultModelPath,
  type LocalModelDtype,
  locateModelFolder,
  ONNX_FILES,
} from './model-folder.js';

export interface LocalEmbedderOptions {
  /**
   * Models root (holding `Xenova/<model>/`) or a model folder that directly holds `config.json`.
   * Default: {@link defaultModelPath} (`$PERMAFROST_MODEL_PATH`, else `~/.cache/permafrost/models`).
   */
  readonly modelPath?: string;
  /** Model folder name under `<modelPath>/Xenova/` (or `owner/name`). Default `all-MiniLM-L6-v2`. */
  readonly model?: string;
  /** `q8` (default) reads `onnx/model_quantized.onnx`; `fp32` reads `onnx/model.onnx`. */
  readonly dtype?: LocalModelDtype;
  /** Texts per model run (default 32). Larger batches are faster per text but hold the event loop longer. */
  readonly batchSize?: number;
  /** Token limit per text (longer texts are truncated). Default: the tokenizer's `model_max_length`. */
  readonly maxTokens?: number;
  /** onnxruntime intra-op threads. Default: onnxruntime's choice (all cores). */
  readonly threads?: number;
}

/** An {@link Embedder} backed by a local ONNX model, loaded lazily on the first `embed` or `load`. */
export interface LocalEmbedder extends Embedder {
  /** Loads the model now (shared with any load already running) and resolves to its dimensions. */
  load(): Promise<number>;
  /** The folder the model was loaded from; `undefined` until loaded. */
  readonly modelFolder: string | undefined;
}

interface Loaded {
  readonly folder: string;
  readonly tokenizer: PreTrainedTokenizer;
  readonly session: InferenceSession;
  readonly ort: OrtModule;
  readonly outputName: string;
  readonly needsTokenTypes: boolean;
  readonly maxTokens: number;
  readonly dimensions: number;
}

type OrtModule = typeof import('onnxruntime-node');
type TokenizerCtor = new (tokenizerJSON: unknown, tokenizerConfig: unknown) => PreTrainedTokenizer;

/** Tokenizer classes whose constructors print warnings; the base class is used for them instead. */
const NOISY_TOKENIZERS = new Set(['XLMTokenizer', 'MarianTokenizer']);
/** A fixed, content-free text run once at load time to learn the output width. */
const PROBE_TEXT = 'permafrost';

function positiveInt(value: number | undefined, fallback: number, name: string, max: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < 1 || v > max) {
    throw new MemoryError(
      ErrorCode.CONFIG_INVALID,
      `local embedder: ${name} must be an integer in [1, ${max}]`,
    );
  }
  return v;
}

/** The fields read from config.json / tokenizer_config.json (everything else is passed through). */
interface ModelJson {
  readonly max_position_embeddings?: unknown;
  readonly model_max_length?: unknown;
  readonly tokenizer_class?: unknown;
}

async function readJson(folder: string, file: string): Promise<ModelJson> {
  const full = path.join(folder, file);
  try {
    const value: unknown = JSON.parse(await readFile(full, 'utf8'));
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new TypeError('not an object');
    return value as ModelJson;
  } catch (cause) {
    throw new MemoryError(
      ErrorCode.MODEL_NOT_FOUND,
      `local embedding model file ${full} is not valid JSON; re-run "npx permafrost-fetch-model" (the installer shipped with @permafrost/embeddings-local)`,
      { cause },
    );
  }
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Creates a local sentence embedder (default: all-MiniLM-L6-v2, 384 dimensions) that reads a model
 * folder from disk and never touches the network. Tokenization is transformers.js's WordPiece/BPE
 * tokenizer built from the folder's `tokenizer.json`; inference runs the ONNX file on
 * onnxruntime-node (the runtime transformers.js uses); vectors are mean-pooled over the attention
 * mask and L2-normalised, exactly as `pipeline('feature-extraction', …, { pooling: 'mean',
 * normalize: true })`. Nothing global in transformers.js (`env`) is read or changed, so several
 * embedders with different folders can coexist in one process.
 */
export function createLocalEmbedder(options: LocalEmbedderOptions = {}): LocalEmbedder {
  const model = options.model ?? DEFAULT_MODEL;
  assertModelName(model);
  const dtype: LocalModelDtype = options.dtype ?? 'q8';
  if (dtype !== 'q8' && dtype !== 'fp32') {
    throw new MemoryError(ErrorCode.CONFIG_INVALID, "local embedder: dtype must be 'q8' or 'fp32'");
  }
  const batchSize = positiveInt(options.batchSize, 32, 'batchSize', 4096);
  const maxTokensOption =
    options.maxTokens === undefined ? undefined : positiveInt(options.maxTokens, 512, 'maxTokens', 1_000_000);
  const threads =
    options.threads === undefined ? undefined : positiveInt(options.threads, 1, 'threads', 1024);
  if (options.modelPath !== undefined && options.modelPath.trim() === '') {
    throw new MemoryError(ErrorCode.CONFIG_INVALID, 'local embedder: modelPath must not be empty');
  }
  const root = path.resolve(options.modelPath ?? defaultModelPath());
  const id = `local-${model}-${dtype}`;

  let loaded: Loaded | undefined;
  let loading: Promise<Loaded> | undefined;
  let closed = false;

  const doLoad = async (): Promise<Loaded> => {
    const folder = await locateModelFolder(root, model, dtype);
    const [config, tokenizerJSON, tokenizerConfig] = await Promise.all([
      readJson(folder, 'config.json'),
      readJson(folder, 'tokenizer.json'),
      readJson(folder, 'tokenizer_config.json'),
    ]);
    const [transformers, ortModule] = await Promise.all([
      // Only the tokenizer module: the package entry also loads sharp and the image/audio stack.
      import('@xenova/transformers/src/tokenizers.js'),
      import('onnxruntime-node'),
    ]);
    // onnxruntime-node is CommonJS and re-exports onnxruntime-common, which Node's ESM named-export
    // detection does not see through: its API lives on the default export.
    const ort = (ortModule as { default?: OrtModule }).default ?? ortModule;

    // Token limit: the smallest of the option, the tokenizer's model_max_length and the model's
    // position table (HF writes 1e30 as "no limit"; transformers.js needs a real number).
    const limits = [config.max_position_embeddings, tokenizerConfig.model_max_length, maxTokensOption].filter(
      (n): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0 && n < 1e9,
    );
    const maxTokens = limits.length > 0 ? Math.min(...limits) : 512;

    let tokenizer: PreTrainedTokenizer;
    try {
      const className = String(tokenizerConfig.tokenizer_class ?? 'PreTrainedTokenizer').replace(/Fast$/, '');
      const mapping = transformers.AutoTokenizer.TOKENIZER_CLASS_MAPPING as unknown as Record<
        string,
        TokenizerCtor
      >;
      const Ctor =
        (NOISY_TOKENIZERS.has(className) ? undefined : mapping[className]) ??
        (transformers.PreTrainedTokenizer as unknown as TokenizerCtor);
      tokenizer = new Ctor(tokenizerJSON, { ...tokenizerConfig, model_max_length: maxTokens });
    } catch (cause) {
      throw new MemoryError(
        ErrorCode.MODEL_NOT_FOUND,
        `local embedding model tokenizer in ${folder} (tokenizer.json, tokenizer_config.json) could not be built`,
        { cause },
      );
    }

    const onnxFile = path.join(folder, ONNX_FILES[dtype]);
    let session: InferenceSession;
    try {
      session = await ort.InferenceSession.create(onnxFile, {
        executionProviders: ['cpu'],
        graphOptimizationLevel: 'all',
        ...(threads === undefined ? {} : { intraOpNumThreads: threads }),
      });
    } catch (cause) {
      throw new MemoryError(
        ErrorCode.MODEL_NOT_FOUND,
        `local embedding model ${onnxFile} could not be loaded by onnxruntime 1.14 (corrupt file, or ONNX IR version > 8 / opset > 18); re-run "npx permafrost-fetch-model" (the installer shipped with @permafrost/embeddings-local)`,
        { cause },
      );
    }
    for (const name of ['input_ids', 'attention_mask']) {
      if (!session.inputNames.includes(name)) {
        throw new MemoryError(
          ErrorCode.MODEL_NOT_FOUND,
          `local embedding model ${onnxFile} has no "${name}" input (inputs: ${session.inputNames.join(', ')})`,
        );
      }
    }
    const outputName = session.outputNames.includes('last_hidden_state')
      ? 'last_hidden_state'
      : session.outputNames[0];
    if (outputName === undefined) {
      throw new MemoryError(ErrorCode.MODEL_NOT_FOUND, `local embedding model ${onnxFile} has no outputs`);
    }
    const partial = {
      folder,
      tokenizer,
      session,
      ort,
      outputName,
      needsTokenTypes: session.inputNames.includes('token_type_ids'),
      maxTokens,
    };
    const [probe] = await runBatch({ ...partial, dimensions: 0 }, [PROBE_TEXT]);
    if (!probe || probe.length === 0) {
      throw new MemoryError(
        ErrorCode.EMBEDDING_FAILED,
        `local embedding model ${onnxFile} produced an empty vector`,
      );
    }
    return { ...partial, dimensions: probe.length };
  };

  const load = (): Promise<Loaded> => {
    if (closed) return Promise.reject(new MemoryError(ErrorCode.CLOSED, 'local embedder is closed'));
    if (loaded) return Promise.resolve(loaded);
    loading ??= doLoad().then(
      (value) => {
        if (!closed) loaded = value;
        return value;
      },
      (error: unknown) => {
        loading = undefined; // a later call may retry, e.g. after permafrost-fetch-model ran
        throw error;
      },
    );
    return loading;
  };

  const embed = async (texts: readonly string[]): Promise<Float32Array[]> => {
    if (closed) throw new MemoryError(ErrorCode.CLOSED, 'local embedder is closed');
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) {
      throw new MemoryError(ErrorCode.SCHEMA_INVALID, 'embed() takes an array of strings');
    }
    if (texts.length === 0) return [];
    const state = await load();
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      if (start > 0) await yieldToEventLoop(); // onnxruntime-node runs on the main thread
      if (closed) throw new MemoryError(ErrorCode.CLOSED, 'local embedder is closed');
      const vectors = await runBatch(state, texts.slice(start, start + batchSize));
      for (const v of vectors) {
        if (v.length !== state.dimensions) {
          throw new MemoryError(
            ErrorCode.EMBEDDING_FAILED,
            'local embedding model returned a vector of another width',
          );
        }
        out.push(v);
      }
    }
    return out;
  };

  return {
    id,
    get dimensions() {
      return loaded?.dimensions;
    },
    get modelFolder() {
      return loaded?.folder;
    },
    embed,
    load: async () => (await load()).dimensions,
    close: async () => {
      if (closed) return;
      closed = true;
      const pending = loading;
      loaded = undefined;
      loading = undefined;
      if (pending) await pending.catch(() => undefined);
      // onnxruntime-node 1.14 has no session.release(); dropping the references frees it on GC.
    },
  };
}

type RunState = Pick<
  Loaded,
  'tokenizer' | 'session' | 'ort' | 'outputName' | 'needsTokenTypes' | 'maxTokens' | 'dimensions'
>;

/** Tokenizes one batch, runs the model, mean-pools over the attention mask and L2-normalises. */
async function runBatch(state: RunState, texts: readonly string[]): Promise<Float32Array[]> {
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

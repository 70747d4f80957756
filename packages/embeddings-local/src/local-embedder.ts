import path from 'node:path';
import { type Embedder, ErrorCode, MemoryError } from '@permafrost/core';
import { assertModelName, DEFAULT_MODEL, defaultModelPath, type LocalModelDtype } from './model-folder.js';
import { type LoadedModel, loadModel } from './model-loader.js';
import { runBatch } from './run-batch.js';

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

  let loaded: LoadedModel | undefined;
  let loading: Promise<LoadedModel> | undefined;
  let closed = false;

  const load = (): Promise<LoadedModel> => {
    if (closed) return Promise.reject(new MemoryError(ErrorCode.CLOSED, 'local embedder is closed'));
    if (loaded) return Promise.resolve(loaded);
    loading ??= loadModel({ root, model, dtype, maxTokens: maxTokensOption, threads }).then(
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

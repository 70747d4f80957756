import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, MemoryError } from '@permafrost/core';
import type { PreTrainedTokenizer } from '@xenova/transformers';
import type { InferenceSession } from 'onnxruntime-node';
import { type LocalModelDtype, locateModelFolder, ONNX_FILES } from './model-folder.js';
import { type OrtModule, type RunState, runBatch } from './run-batch.js';

/** A model ready to run, and the folder it was loaded from. */
export interface LoadedModel extends RunState {
  readonly folder: string;
}

/** What loading needs: where to look, which model and file, and the caller's limits. */
export interface LoadRequest {
  readonly root: string;
  readonly model: string;
  readonly dtype: LocalModelDtype;
  /** The maxTokens option, if given (the model's own limits may be lower). */
  readonly maxTokens: number | undefined;
  readonly threads: number | undefined;
}

type TokenizerCtor = new (tokenizerJSON: unknown, tokenizerConfig: unknown) => PreTrainedTokenizer;

/** Tokenizer classes whose constructors print warnings; the base class is used for them instead. */
const NOISY_TOKENIZERS = new Set(['XLMTokenizer', 'MarianTokenizer']);
/** A fixed, content-free text run once at load time to learn the output width. */
const PROBE_TEXT = 'permafrost';

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

/**
 * Finds the model folder, builds its tokenizer from tokenizer.json, opens the ONNX file on
 * onnxruntime-node and runs a probe text to learn the vector width.
 */
export async function loadModel(request: LoadRequest): Promise<LoadedModel> {
  const { root, model, dtype, threads, maxTokens: maxTokensOption } = request;
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
}

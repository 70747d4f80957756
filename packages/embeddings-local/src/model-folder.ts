import { constants as fsConstants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { ErrorCode, MemoryError } from '@permafrost/core';

/** Weight precision: `q8` reads `onnx/model_quantized.onnx`, `fp32` reads `onnx/model.onnx`. */
export type LocalModelDtype = 'q8' | 'fp32';

/** Model name used when none is given (the folder name under `Xenova/`). */
export const DEFAULT_MODEL = 'all-MiniLM-L6-v2';

/** The ONNX file read for each dtype, relative to the model folder (transformers.js v2 names). */
export const ONNX_FILES: Readonly<Record<LocalModelDtype, string>> = {
  q8: 'onnx/model_quantized.onnx',
  fp32: 'onnx/model.onnx',
};

/** Files a model folder must hold for a dtype, relative to the folder. */
export function requiredModelFiles(dtype: LocalModelDtype): readonly string[] {
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', ONNX_FILES[dtype]];
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The models root used when no `modelPath` is given: `$PERMAFROST_MODEL_PATH`, else
 * `$PERMAFROST_CACHE/models`, else `${XDG_CACHE_HOME:-~/.cache}/permafrost/models`
 * (the folder `permafrost-fetch-model` fills by default).
 */
export function defaultModelPath(env: Env = process.env): string {
  const read = (name: string): string | undefined => env[name];
  const explicit = read('PERMAFROST_MODEL_PATH');
  if (explicit) return path.resolve(explicit);
  const cache = read('PERMAFROST_CACHE');
  if (cache) return path.resolve(cache, 'models');
  const xdg = read('XDG_CACHE_HOME');
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(homedir(), '.cache');
  return path.join(base, 'permafrost', 'models');
}

const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)?$/;

/** Model names are folder names: `name` or `owner/name`, no `..`, no absolute paths. */
export function assertModelName(model: string): void {
  if (!MODEL_NAME.test(model) || model.split('/').some((part) => part === '..' || part === '.')) {
    throw new MemoryError(
      ErrorCode.CONFIG_INVALID,
      'local embedder: model must be a folder name like "all-MiniLM-L6-v2" or "Xenova/all-MiniLM-L6-v2"',
    );
  }
}

/**
 * Folders tried, in order, for a models root and a model name:
 * 1. the root itself (a folder that directly holds `config.json`),
 * 2. `<root>/<owner>/<name>` when the model is given as `owner/name`,
 * 3. `<root>/Xenova/<name>` (what `permafrost-fetch-model` writes; the transformers.js layout),
 * 4. `<root>/<name>`.
 */
export function candidateFolders(root: string, model: string): string[] {
  const out = [root];
  if (model.includes('/')) out.push(path.join(root, model));
  else out.push(path.join(root, 'Xenova', model), path.join(root, model));
  return [...new Set(out)];
}

async function isFile(file: string): Promise<boolean> {
  try {
    const s = await stat(file);
    if (!s.isFile()) return false;
    await access(file, fsConstants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** Finds the model folder and checks every required file, or throws MODEL_NOT_FOUND naming them. */
export async function locateModelFolder(
  root: string,
  model: string,
  dtype: LocalModelDtype,
): Promise<string> {
  const required = requiredModelFiles(dtype);
  const candidates = candidateFolders(root, model);
  for (const folder of candidates) {
    if (!(await isFile(path.join(folder, 'config.json')))) continue;
    const missing: string[] = [];
    for (const file of required) if (!(await isFile(path.join(folder, file)))) missing.push(file);
    if (missing.length === 0) return folder;
    const other: LocalModelDtype = dtype === 'q8' ? 'fp32' : 'q8';
    const hint =
      missing.length === 1 &&
      missing[0] === ONNX_FILES[dtype] &&
      (await isFile(path.join(folder, ONNX_FILES[other])))
        ? ` (${ONNX_FILES[other]} is present: set dtype: '${other}')`
        : '';
    throw new MemoryError(
      ErrorCode.MODEL_NOT_FOUND,
      `local embedding model folder ${folder} is incomplete: missing ${missing.join(', ')}${hint}. ` +
        `Expected ${required.join(', ')}. Run "npx permafrost-fetch-model" (shipped with @permafrost/embeddings-local) to install all-MiniLM-L6-v2.`,
    );
  }
  throw new MemoryError(
    ErrorCode.MODEL_NOT_FOUND,
    `local embedding model "${model}" not found: none of ${candidates.join(', ')} holds config.json. ` +
      `Expected ${required.join(', ')} in <modelPath>/Xenova/${model.includes('/') ? model.slice(model.indexOf('/') + 1) : model}/ ` +
      '(or in a folder given directly as modelPath). Run "npx permafrost-fetch-model" (shipped with @permafrost/embeddings-local), or set PERMAFROST_MODEL_PATH.',
  );
}

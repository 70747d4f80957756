/**
 * Runtime shape checks for the structured `task.input` of a chat request. The heuristic model
 * trusts nothing it is handed: a malformed input yields an empty answer, never an exception.
 */
import type { ExtractionInput } from '../../extraction/extraction-contract.js';
import type { ReconcileInput, SummarizeInput } from '../../extraction/task-contracts.js';

type Obj = Readonly<Record<string, unknown>>;

/** Read a field by name (index access, so noPropertyAccessFromIndexSignature and the linter agree). */
const field = (v: Obj, key: string): unknown => v[key];
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const arrayOf = (v: unknown, item: (x: unknown) => boolean): boolean => Array.isArray(v) && v.every(item);

const rosterEntry = (v: unknown): boolean => isObj(v) && isStr(field(v, 'token')) && isStr(field(v, 'name'));
const message = (v: unknown): boolean =>
  isObj(v) &&
  isNum(field(v, 'index')) &&
  isStr(field(v, 'authorToken')) &&
  isStr(field(v, 'content')) &&
  arrayOf(field(v, 'mentionTokens'), isStr);

export function isExtractionInput(v: unknown): v is ExtractionInput {
  return (
    isObj(v) &&
    (field(v, 'scope') === 'member' || field(v, 'scope') === 'community') &&
    isStr(field(v, 'batchDate')) &&
    arrayOf(field(v, 'roster'), rosterEntry) &&
    arrayOf(field(v, 'messages'), message)
  );
}

const existing = (v: unknown): boolean => isObj(v) && isStr(field(v, 'id')) && isStr(field(v, 'text'));
const collision = (v: unknown): boolean =>
  isObj(v) &&
  isNum(field(v, 'candidateIndex')) &&
  isStr(field(v, 'text')) &&
  isStr(field(v, 'subjectName')) &&
  arrayOf(field(v, 'existing'), existing);

export function isReconcileInput(v: unknown): v is ReconcileInput {
  return isObj(v) && arrayOf(field(v, 'collisions'), collision);
}

export function isSummarizeInput(v: unknown): v is SummarizeInput {
  return (
    isObj(v) &&
    isStr(field(v, 'subjectName')) &&
    arrayOf(field(v, 'facts'), isStr) &&
    isNum(field(v, 'maxWords'))
  );
}

/** The text to classify: `{ text }` or a bare string. */
export function classifyText(v: unknown): string | null {
  if (isStr(v)) return v;
  if (!isObj(v)) return null;
  const text = field(v, 'text');
  return isStr(text) ? text : null;
}

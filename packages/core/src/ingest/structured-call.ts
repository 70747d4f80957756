import type { z } from 'zod';
import { ErrorCode, MemoryError } from '../errors/index.js';
import type { MeterPurpose } from '../model/enums.js';
import type { ChatLLM, ChatMessage, ChatTask, JsonSchema, ResponseFormat } from '../ports/chat-llm.js';
import { parseJsonObject } from './json-repair.js';

export interface StructuredCallOptions<T> {
  readonly llm: ChatLLM;
  readonly schema: z.ZodType<T>;
  /** Strict JSON schema sent with json_schema mode. */
  readonly jsonSchema: JsonSchema;
  readonly mode: 'strict' | 'json_object';
  readonly name: string;
  readonly messages: readonly ChatMessage[];
  readonly purpose: MeterPurpose;
  readonly maxTokens: number;
  readonly guildId?: string;
  readonly task?: ChatTask;
  /** Called with prompt tokens of every response (budget accounting). */
  readonly onUsage?: (promptTokens: number) => Promise<void>;
  /**
   * Asked before the repair turn; false (e.g. the first reply used up the guild's token budget)
   * fails with BUDGET_EXCEEDED instead of sending another request.
   */
  readonly mayRepair?: () => Promise<boolean>;
}

export interface StructuredResult<T> {
  readonly value: T;
  readonly calls: number;
  readonly repaired: boolean;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

function validate<T>(
  schema: z.ZodType<T>,
  text: string,
): { ok: true; value: T } | { ok: false; problem: string } {
  const parsed = parseJsonObject(text);
  if (parsed === undefined) return { ok: false, problem: 'the reply was not a JSON object' };
  const result = schema.safeParse(parsed);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, problem: describeIssues(result.error) };
}

/**
 * The only path from a model to structured data: request JSON (strict schema or json_object),
 * parse tolerantly, validate with zod, and on failure ask once for a corrected object. A second
 * failure is LLM_OUTPUT_INVALID.
 */
export async function callStructured<T>(options: StructuredCallOptions<T>): Promise<StructuredResult<T>> {
  const responseFormat: ResponseFormat =
    options.mode === 'strict'
      ? { type: 'json_schema', name: options.name, schema: options.jsonSchema }
      : { type: 'json_object' };
  const base = {
    purpose: options.purpose,
    maxTokens: options.maxTokens,
    responseFormat,
    ...(options.guildId !== undefined ? { guildId: options.guildId } : {}),
  };
  const first = await options.llm.complete({
    ...base,
    messages: options.messages,
    ...(options.task ? { task: options.task } : {}),
  });
  await options.onUsage?.(first.promptTokens);
  const checked = validate(options.schema, first.text);
  if (checked.ok) return { value: checked.value, calls: 1, repaired: false };
  if (options.mayRepair && !(await options.mayRepair()))
    throw new MemoryError(
      ErrorCode.BUDGET_EXCEEDED,
      `the token budget was used up before the repair turn for ${options.purpose}`,
    );

  const repairMessages: ChatMessage[] = [
    ...options.messages,
    { role: 'assistant', content: first.text.slice(0, 8000) },
    {
      role: 'user',
      content: `That reply could not be used (${checked.problem}). Reply again with only one JSON object that follows this schema exactly:\n${JSON.stringify(options.jsonSchema)}`,
    },
  ];
  const second = await options.llm.complete({
    ...base,
    messages: repairMessages,
    ...(options.task ? { task: options.task } : {}),
  });
  await options.onUsage?.(second.promptTokens);
  const again = validate(options.schema, second.text);
  if (again.ok) return { value: again.value, calls: 2, repaired: true };
  throw new MemoryError(
    ErrorCode.LLM_OUTPUT_INVALID,
    `the model output for ${options.purpose} did not validate after one repair turn`,
  );
}

import type { ChatMessage, ChatRequest, JsonSchema } from '../../ports/chat-llm.js';

export interface ChatBodySettings {
  readonly model: string;
  /** null: the key is omitted (for models that reject it). */
  readonly temperature: number | null;
  readonly maxTokensKey: 'max_tokens' | 'max_completion_tokens';
  /** `strict`: json_schema requests are sent as strict JSON Schema; `json_object`: as JSON mode. */
  readonly structuredOutputs: 'strict' | 'json_object';
  readonly reasoningEffort: string | null;
  /** Adds OpenRouter's `usage`, `reasoning` and `provider` fields. */
  readonly openRouter: boolean;
}

/** OpenAI accepts `^[a-zA-Z0-9_-]{1,64}$` as a schema name. */
export function schemaName(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return clean === '' ? 'output' : clean;
}

/**
 * In JSON mode the model never sees the schema, and OpenAI requires the word "JSON" in the
 * messages; so the schema is appended to the (first) system message, or sent as one.
 */
function withSchemaInstruction(messages: readonly ChatMessage[], schema: JsonSchema): ChatMessage[] {
  const instruction = `Reply with one JSON object that matches this JSON Schema:\n${JSON.stringify(schema)}`;
  const [first, ...rest] = messages;
  if (first?.role === 'system')
    return [{ role: 'system', content: `${first.content}\n\n${instruction}` }, ...rest];
  return [{ role: 'system', content: instruction }, ...messages];
}

/** The JSON body sent to `POST /chat/completions`. */
export interface ChatBody {
  model: string;
  messages: { role: ChatMessage['role']; content: string }[];
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  response_format?: Record<string, unknown>;
  reasoning_effort?: string;
  /** OpenRouter extras. */
  usage?: { include: true };
  reasoning?: { effort: string };
  provider?: { require_parameters: true };
}

/** The `chat.completions.create` body for one request (plain JSON; extra provider keys included). */
export function buildChatBody(settings: ChatBodySettings, request: ChatRequest): ChatBody {
  const format = request.responseFormat;
  let messages: readonly ChatMessage[] = request.messages;
  let responseFormat: Record<string, unknown> | undefined;
  let strictSchema = false;
  if (format.type === 'json_schema') {
    if (settings.structuredOutputs === 'strict') {
      strictSchema = true;
      responseFormat = {
        type: 'json_schema',
        json_schema: { name: schemaName(format.name), strict: true, schema: format.schema },
      };
    } else {
      messages = withSchemaInstruction(messages, format.schema);
      responseFormat = { type: 'json_object' };
    }
  } else if (format.type === 'json_object') {
    responseFormat = { type: 'json_object' };
  }

  const body: ChatBody = {
    model: settings.model,
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
  };
  if (settings.temperature !== null) body.temperature = settings.temperature;
  body[settings.maxTokensKey] = request.maxTokens;
  if (responseFormat) body.response_format = responseFormat;

  if (settings.openRouter) {
    body.usage = { include: true };
    if (settings.reasoningEffort !== null) body.reasoning = { effort: settings.reasoningEffort };
    if (strictSchema) body.provider = { require_parameters: true };
  } else if (settings.reasoningEffort !== null) {
    body.reasoning_effort = settings.reasoningEffort;
  }
  return body;
}

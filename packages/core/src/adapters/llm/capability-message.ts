import { APIError } from 'openai';

export interface CapabilityContext {
  readonly model: string;
  readonly status: number;
  readonly requestFormat: 'text' | 'json_object' | 'json_schema';
  readonly structuredOutputs: 'strict' | 'json_object';
  readonly maxTokensKey: 'max_tokens' | 'max_completion_tokens';
  readonly temperature: number | null;
  readonly reasoningEffort: string | null;
}

interface Knob {
  readonly hint: string;
  /** Words in the provider's error text that point at this knob. */
  readonly pattern: RegExp;
}

/** The provider's error text, lower-cased; read only to pick a knob, never copied into a message. */
function providerText(cause: unknown): string {
  if (cause instanceof APIError) {
    const body = cause.error as { message?: unknown } | undefined;
    const text = typeof body?.message === 'string' ? body.message : cause.message;
    return text.toLowerCase();
  }
  return cause instanceof Error ? cause.message.toLowerCase() : '';
}

function applicableKnobs(ctx: CapabilityContext): Knob[] {
  const knobs: Knob[] = [];
  if (ctx.requestFormat === 'json_schema' && ctx.structuredOutputs === 'strict')
    knobs.push({
      hint: 'structured_outputs=json_object',
      pattern: /response_format|json_schema|structured|schema|require_parameters|no endpoints/,
    });
  knobs.push({
    hint: `max_tokens_key=${ctx.maxTokensKey === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens'}`,
    pattern: /max_tokens|max_completion_tokens/,
  });
  if (ctx.temperature !== null) knobs.push({ hint: 'temperature=none', pattern: /temperature/ });
  if (ctx.reasoningEffort !== null)
    knobs.push({ hint: 'reasoning (remove it or pick another effort)', pattern: /reasoning/ });
  if (ctx.requestFormat === 'json_object' || ctx.structuredOutputs === 'json_object')
    knobs.push({ hint: 'a model that supports JSON mode', pattern: /json_object|json mode/ });
  return knobs;
}

/**
 * A fixed, content-free message naming the model and the configuration knob most likely to fix a
 * 400/404/422. The provider's own error text may echo the prompt, so it only goes in `cause`.
 */
export function capabilityMessage(ctx: CapabilityContext, cause: unknown): string {
  const text = providerText(cause);
  const knobs = applicableKnobs(ctx);
  const matched = knobs.find((k) => k.pattern.test(text));
  const modelKnob = 'model (check the model name and the base URL path)';
  let first: string;
  if (matched) first = matched.hint;
  else if (ctx.status === 404 || /model/.test(text)) first = modelKnob;
  else first = knobs[0]?.hint ?? modelKnob;
  const others = knobs.map((k) => k.hint).filter((h) => h !== first);
  const tail = others.length > 0 ? ` (else try: ${others.join(', ')})` : '';
  return `LLM endpoint rejected the request for model "${ctx.model}" (HTTP ${ctx.status}); most likely knob to change: ${first}${tail}`;
}

/** The same for embeddings: the model name and `dimensions` are the only knobs. */
export function embeddingCapabilityMessage(model: string, status: number, dimensions: number | null): string {
  const knob = dimensions !== null ? 'dimensions (remove it or use a supported size) or model' : 'model';
  return `Embedding endpoint rejected the request for model "${model}" (HTTP ${status}); check ${knob}`;
}

import OpenAI from 'openai';

export interface OpenAiClientSettings {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly timeoutMs: number;
  readonly fetch?: typeof fetch | undefined;
}

/** The SDK would otherwise log through `console` (library code never does). */
const silentLogger = { error() {}, warn() {}, info() {}, debug() {} };

/** Placeholder credential for keyless local servers; the Authorization header is then removed. */
const NO_KEY = 'no-key';

/**
 * An SDK client with retries off (Permafrost retries itself so the policy is exact), a silent
 * logger, and no ambient `OPENAI_*` organisation / project settings leaking in from the environment.
 */
export function createOpenAiClient(settings: OpenAiClientSettings): OpenAI {
  const keyless = settings.apiKey === '';
  return new OpenAI({
    baseURL: settings.baseUrl,
    apiKey: keyless ? NO_KEY : settings.apiKey,
    organization: null,
    project: null,
    webhookSecret: null,
    timeout: settings.timeoutMs,
    maxRetries: 0,
    logger: silentLogger,
    logLevel: 'off',
    ...(keyless ? { defaultHeaders: { authorization: null } } : {}),
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
  });
}

/** True when the endpoint host is OpenRouter (`*.openrouter.ai`). */
export function isOpenRouterUrl(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname.includes('openrouter.ai');
  } catch {
    return false;
  }
}

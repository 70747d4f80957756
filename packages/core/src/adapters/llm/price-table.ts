/** USD per million tokens. */
export interface ModelPrice {
  readonly prompt: number;
  readonly completion: number;
}

/** Model-name substring → price. The longest matching key wins (`gpt-4o-mini` over `gpt-4o`). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * Indicative list prices (USD per million tokens) of a few well-known models, used only when the
 * provider reports no cost. They go stale: `budgets.prices` entries override and extend them.
 */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  'gpt-4o-mini': { prompt: 0.15, completion: 0.6 },
  'gpt-4o': { prompt: 2.5, completion: 10 },
  'gpt-4.1-nano': { prompt: 0.1, completion: 0.4 },
  'gpt-4.1-mini': { prompt: 0.4, completion: 1.6 },
  'gpt-4.1': { prompt: 2, completion: 8 },
  'gpt-5-nano': { prompt: 0.05, completion: 0.4 },
  'gpt-5-mini': { prompt: 0.25, completion: 2 },
  'gpt-5': { prompt: 1.25, completion: 10 },
  'gemini-2.0-flash': { prompt: 0.1, completion: 0.4 },
  'gemini-2.5-flash-lite': { prompt: 0.1, completion: 0.4 },
  'gemini-2.5-flash': { prompt: 0.3, completion: 2.5 },
  'claude-3-5-haiku': { prompt: 0.8, completion: 4 },
  'claude-haiku-4-5': { prompt: 1, completion: 5 },
  'text-embedding-3-small': { prompt: 0.02, completion: 0 },
  'text-embedding-3-large': { prompt: 0.13, completion: 0 },
});

/** The price of the longest key contained in `model` (case-insensitive), or null. */
export function findPrice(model: string, table: PriceTable): ModelPrice | null {
  const name = model.toLowerCase();
  let best: { key: string; price: ModelPrice } | null = null;
  for (const [key, price] of Object.entries(table)) {
    if (name.includes(key.toLowerCase()) && (best === null || key.length > best.key.length))
      best = { key, price };
  }
  return best?.price ?? null;
}

/** Cost in USD of one call by the table, or null when no entry matches. */
export function priceCall(
  model: string,
  promptTokens: number,
  completionTokens: number,
  table: PriceTable,
): number | null {
  const price = findPrice(model, table);
  if (price === null) return null;
  return (promptTokens * price.prompt + completionTokens * price.completion) / 1_000_000;
}

/** Scores documents against a query; higher is more relevant. One score per document, in order. */
export interface Reranker {
  readonly id: string;
  score(query: string, documents: readonly string[], signal?: AbortSignal): Promise<number[]>;
}

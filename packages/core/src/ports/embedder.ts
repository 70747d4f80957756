/**
 * Turns texts into unit-length vectors. Implementations: hashing (default, in core),
 * OpenAI-compatible endpoints (core), local models (`@permafrost/embeddings-local`).
 */
export interface Embedder {
  /** Stable identifier of the model and settings, e.g. `hashing-256`; recorded beside stored vectors. */
  readonly id: string;
  /** Vector length; `undefined` until a lazily loaded model has loaded. */
  readonly dimensions: number | undefined;
  /**
   * True when the vectors only encode shared words and spellings (the built-in hashing embedder,
   * the bag-of-words test embedder): their cosine is a weaker keyword signal, kept on its raw
   * scale by `retrieval.semanticScale: 'auto'`. Unset for sentence-embedding models.
   */
  readonly lexical?: boolean;
  /** One vector per text, in order, each L2-normalised. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Releases model resources, if any. */
  close(): Promise<void>;
}

/** Store-wide key/value metadata (embedder id and dimensions, analyzer id, schema facts). */
export interface MetaStore {
  getMeta(key: string): Promise<string | null>;
  setMeta(key: string, value: string): Promise<void>;
}

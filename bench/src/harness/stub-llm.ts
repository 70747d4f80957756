/**
 * The memory configuration of the suites that extract against the scripted loopback server:
 * storage as given, guild-wide reads, hashing embeddings, workers off (the suite runs them), and
 * the stub model answering JSON with no retries.
 */
export function stubExtractionConfig(storage: string, serverUrl: string) {
  return {
    storage,
    access: { requireAudience: false },
    llm: {
      baseUrl: serverUrl,
      apiKey: 'stub',
      model: 'stub-extractor',
      structuredOutputs: 'json_object' as const,
      maxRetries: 0,
    },
    embeddings: 'hashing' as const,
    workers: { enabled: false },
  };
}

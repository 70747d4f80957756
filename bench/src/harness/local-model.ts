import { createLocalEmbedder, defaultModelPath, type LocalEmbedder } from '@permafrost/embeddings-local';

/** The local model when its folder exists and loads; otherwise the reason it cannot run. */
export async function tryLocalEmbedder(): Promise<
  { embedder: LocalEmbedder; folder: string } | { reason: string }
> {
  const root = defaultModelPath();
  const embedder = createLocalEmbedder({ modelPath: root });
  try {
    await embedder.load();
    return { embedder, folder: embedder.modelFolder ?? root };
  } catch (error) {
    await embedder.close().catch(() => undefined);
    return {
      reason: `local model not available under ${root} (run scripts/fetch-model): ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

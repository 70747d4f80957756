export const packageName = '@permafrost/embeddings-local';

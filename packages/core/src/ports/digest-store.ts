import type { Digest } from '../model/graph.js';

/** Profile digests: one short summary per subject (or the server) per guild. */
export interface DigestStore {
  getDigest(guildId: string, subjectId: string | null): Promise<Digest | null>;
  putDigest(digest: Digest): Promise<void>;
}

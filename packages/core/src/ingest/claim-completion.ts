import { ErrorCode, MemoryError } from '../errors/index.js';
import type { BatchKey, StoredMessage } from '../model/message.js';
import type { VectorItem } from '../ports/vector-index.js';
import type { IngestDeps } from './deps.js';
import { type ErasureFence, messageErased } from './erasure-fence.js';

/** One key's claimed messages. */
export interface Claimed {
  readonly key: BatchKey;
  readonly messages: readonly StoredMessage[];
}

export const keyId = (key: BatchKey): string => `${key.guildId}\u0000${key.subjectKey}`;

/** Message vectors for conversation search are computed here, never on the observe path. */
export async function embedMessages(
  deps: IngestDeps,
  messages: readonly StoredMessage[],
): Promise<VectorItem[]> {
  const rows = messages.filter((m) => m.rawStored && m.content.trim().length > 0);
  if (rows.length === 0) return [];
  const vectors = await deps.embedder.embed(rows.map((m) => m.content));
  return rows.map((m, i) => ({
    kind: 'message' as const,
    id: m.messageId,
    guildId: m.guildId,
    subjectId: m.authorId,
    active: true,
    vector: vectors[i] as Float32Array,
  }));
}

/**
 * Marks claimed batches done, inside the caller's transaction: writes their message vectors and
 * flips their messages to processed. Messages erased since the batch began (a purge, a deleted or
 * edited message) are skipped. A lost lease, or fewer rows than claimed (another worker took the
 * key over), throws CONFLICT so the whole commit rolls back.
 */
export async function completeClaims(
  deps: IngestDeps,
  done: readonly Claimed[],
  context: {
    readonly owner: string;
    readonly guildId: string;
    readonly vectors: readonly VectorItem[];
    readonly fence: ErasureFence;
    readonly lost: ReadonlySet<string>;
  },
): Promise<void> {
  const { store, clock } = deps;
  const lostError = () => new MemoryError(ErrorCode.CONFLICT, 'the batch lease was lost while extracting');
  if (done.some((c) => context.lost.has(keyId(c.key)))) throw lostError();
  const erased = await context.fence.check();
  const live = (c: Claimed) => c.messages.filter((m) => !messageErased(m, erased));
  const ids = new Set(done.flatMap((c) => live(c).map((m) => m.messageId)));
  const mine = context.vectors.filter((v) => ids.has(v.id));
  if (mine.length > 0) await store.vectors.upsert(mine);
  // Every claim in one call (last: on a store without atomic transactions, "done" must follow
  // what the batch wrote); fewer rows than were kept means some claim was lost.
  const kept = [...ids];
  if (kept.length === 0) return;
  const completed = await store.queue.complete(context.guildId, kept, context.owner, clock.now());
  if (completed !== kept.length) throw lostError();
}

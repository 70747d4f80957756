import { ErrorCode, MemoryError } from '../errors/index.js';
import type { BatchKey, StoredMessage } from '../model/message.js';
import type { VectorItem } from '../ports/vector-index.js';
import { BatchCompletion } from './batch-completion.js';
import type { IngestDeps } from './deps.js';
import { type Erased, type ErasureFence, messageErased } from './erasure-fence.js';

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

export interface ClaimContext {
  readonly owner: string;
  readonly guildId: string;
  readonly vectors: readonly VectorItem[];
  readonly fence: ErasureFence;
  readonly lost: ReadonlySet<string>;
}

/** The ids of the claimed messages not covered by the erasures. */
function liveIds(done: readonly Claimed[], erased: Erased): Set<string> {
  return new Set(
    done.flatMap((c) => c.messages.filter((m) => !messageErased(m, erased)).map((m) => m.messageId)),
  );
}

/**
 * Writes the message vectors of claimed batches (for conversation search), skipping messages
 * erased since the batch began. Idempotent, and no sign that the batch is done: it may go out
 * beside the batch's facts. Erasures recorded after `erased` was read are applied again once the
 * batch is done (fence-reapply.ts).
 */
export async function writeClaimVectors(
  deps: IngestDeps,
  done: readonly Claimed[],
  context: ClaimContext,
  erased: Erased | null,
): Promise<void> {
  const ids = liveIds(done, erased ?? (await context.fence.check()));
  const mine = context.vectors.filter((v) => ids.has(v.id));
  if (mine.length > 0) await deps.store.vectors.upsert(mine);
}

/**
 * Marks claimed batches done, inside the caller's transaction: flips their messages to processed
 * (their vectors are written by writeClaimVectors first). Messages erased since the batch began
 * (a purge, a deleted or edited message) are skipped. A lost lease, or fewer rows than claimed
 * (another worker took the key over), throws CONFLICT so the whole commit rolls back. With
 * `after` (the batch's writes, still in flight) the store prepares meanwhile and marks nothing
 * before they landed; the lease is checked again then.
 */
export async function completeClaims(
  deps: IngestDeps,
  done: readonly Claimed[],
  context: ClaimContext,
  erased: Erased | null,
  after?: Promise<unknown>,
): Promise<void> {
  const lostError = () => new MemoryError(ErrorCode.CONFLICT, 'the batch lease was lost while extracting');
  const leaseLost = () => done.some((c) => context.lost.has(keyId(c.key)));
  if (leaseLost()) throw lostError();
  // Every claim in one call (last: on a store without atomic transactions, "done" must follow
  // what the batch wrote); fewer rows than were kept means some claim was lost.
  const kept = [...liveIds(done, erased ?? (await context.fence.check()))];
  if (kept.length === 0) return;
  const ready = after?.then(() => {
    if (leaseLost()) throw lostError();
  });
  const completed = await deps.store.queue.complete(
    context.guildId,
    kept,
    context.owner,
    deps.clock.now(),
    ready ? { after: ready } : {},
  );
  if (completed === kept.length) return;
  // Fewer: a claim was lost, or a message was erased (its row deleted) after `erased` was read.
  // Only the erasures recorded now tell them apart: every message still not erased must be done.
  if (completed < liveIds(done, await context.fence.check()).size) throw lostError();
}

/** The bookkeeping of claimed batches: their vectors beside the facts, then "done". */
export function claimCompletion(
  deps: IngestDeps,
  done: readonly Claimed[],
  context: ClaimContext,
): BatchCompletion {
  return new BatchCompletion(
    {
      beside: (erased) => writeClaimVectors(deps, done, context, erased),
      finish: (erased, after) => completeClaims(deps, done, context, erased, after),
    },
    () => context.fence.check(),
  );
}

import type { StoredMessage } from '../../src/model/message.js';
import type { Embedder } from '../../src/ports/embedder.js';
import type { MemoryStore } from '../../src/ports/memory-store.js';
import { G, T0 } from './world.js';

let seq = 0;

export function makeMessage(overrides: Partial<StoredMessage> & { content: string }): StoredMessage {
  seq++;
  const createdAt = overrides.createdAt ?? new Date(T0.getTime() + seq * 60_000);
  return {
    messageId: `m${String(seq).padStart(6, '0')}`,
    guildId: G,
    channelId: 'c1',
    authorId: 'u1',
    authorUsername: 'alice',
    authorDisplayName: 'Alice',
    authorIsBot: false,
    contentTruncated: false,
    rawStored: true,
    createdAt,
    mentionIds: [],
    replyToMessageId: null,
    threadParentId: null,
    edited: false,
    metadata: null,
    kind: 'chat',
    subjectKey: overrides.authorId ?? 'u1',
    status: 'processed',
    attempts: 0,
    nextAttemptAt: null,
    leaseOwner: null,
    leaseUntil: null,
    processedAt: createdAt,
    ...overrides,
  };
}

/** Stores messages with their `message` vectors, as the ingest workers do. */
export async function storeMessages(
  store: MemoryStore,
  embedder: Embedder,
  messages: readonly StoredMessage[],
): Promise<void> {
  await store.queue.enqueueMany(messages, 1_000_000);
  const vectors = await embedder.embed(messages.map((m) => m.content));
  await store.vectors.upsert(
    messages.map((m, i) => ({
      kind: 'message' as const,
      id: m.messageId,
      guildId: m.guildId,
      subjectId: m.authorId,
      active: true,
      vector: vectors[i] as Float32Array,
    })),
  );
}

/** A conversation of consecutive messages one minute apart starting at `start`. */
export function conversation(
  lines: readonly (readonly [string, string])[],
  start: Date,
  channelId = 'c1',
): StoredMessage[] {
  return lines.map(([authorId, content], i) =>
    makeMessage({ authorId, content, channelId, createdAt: new Date(start.getTime() + i * 60_000) }),
  );
}

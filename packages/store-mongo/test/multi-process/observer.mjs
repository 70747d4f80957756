// Enqueues messages from many authors while workers drain them, then raises the "done" cursor.
// Uses the BUILT package (dist) through its own name. Prints one JSON line on stdout.
import { createMongoStore } from '@permafrost/store-mongo';

const { MONGO_URL: url, PF_DB: dbName, PF_GUILD: guildId } = process.env;
const total = Number(process.env.PF_MESSAGES ?? 2000);
const authors = Number(process.env.PF_AUTHORS ?? 20);
const chunk = Number(process.env.PF_CHUNK ?? 100);
const spreadMs = Number(process.env.PF_SPREAD_MS ?? 3000);

const store = createMongoStore({ url, dbName });
await store.setup();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const outcomes = { accepted: 0, duplicate: 0, over_capacity: 0 };
const started = Date.now();
for (let i = 0; i < total; i += chunk) {
  const batch = [];
  for (let j = i; j < Math.min(total, i + chunk); j++) {
    const authorId = `a${String(j % authors).padStart(2, '0')}`;
    batch.push({
      messageId: `m${String(j).padStart(6, '0')}`,
      guildId,
      channelId: `c${j % 3}`,
      authorId,
      authorUsername: authorId,
      authorDisplayName: authorId,
      authorIsBot: false,
      content: `message ${j} from ${authorId} about things`,
      contentTruncated: false,
      rawStored: true,
      createdAt: new Date(),
      mentionIds: [],
      replyToMessageId: null,
      threadParentId: null,
      edited: false,
      metadata: null,
      kind: 'chat',
      subjectKey: authorId,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: null,
      leaseOwner: null,
      leaseUntil: null,
      processedAt: null,
    });
  }
  for (const o of await store.queue.enqueueMany(batch, 100_000)) outcomes[o]++;
  await sleep(Math.max(0, (spreadMs * (i + chunk)) / total - (Date.now() - started)));
}
await store.cursors.setCursor(guildId, 'multi-process', 'enqueued');
process.stdout.write(`${JSON.stringify({ role: 'observer', outcomes, enqueueMs: Date.now() - started })}\n`);
await store.close();

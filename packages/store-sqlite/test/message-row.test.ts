import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeMessage } from '@permafrost/store-conformance';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../src/index.js';
import { type MessageRow, messageFields, messageFromRow, rowFromValues } from '../src/rows/message-row.js';

describe('message rows read by position', () => {
  it('decode to the same message as a read by column name, for every column', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'permafrost-message-row-'));
    const path = join(dir, 'memory.db');
    try {
      const store = createSqliteStore({ path });
      // Every column holds a value (no null), so a column read from the wrong position shows.
      await store.queue.enqueue(
        makeMessage({
          messageId: 'm1',
          mentionIds: ['u9'],
          replyToMessageId: 'm0',
          threadParentId: 't1',
          metadata: { k: 'v' },
          edited: true,
          contentTruncated: true,
          attempts: 2,
          nextAttemptAt: new Date(1_000),
          leaseOwner: 'w1',
          leaseUntil: new Date(2_000),
          processedAt: new Date(3_000),
        }),
        100,
      );
      await store.close();
      const db = new Database(path, { readonly: true });
      const named = db.prepare('SELECT * FROM messages').get() as MessageRow;
      const values = db.prepare(`SELECT ${messageFields()} FROM messages`).raw(true).get() as unknown[];
      db.close();
      expect(rowFromValues(values)).toEqual(named);
      expect(messageFromRow(rowFromValues(values))).toEqual(messageFromRow(named));
      expect(Object.values(named)).not.toContain(null);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * The read thread (see read-thread.ts): its own read-only connection to the store's file,
 * answering requests one after another with the same code the store's own connection runs, and
 * an in-memory copy of the message keyword index that ranks searches once built (KeywordPostings).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteConnection } from '../connection.js';
import { KeywordPostings } from '../keyword-postings/keyword-postings.js';
import { messageKeywordHits } from '../sql/message-keyword-search.js';
import { readGuildRows } from '../vector-scan/guild-rows.js';
import type { ThreadData, ThreadReply, ThreadRequest } from './protocol.js';

const port = parentPort;
if (port) {
  const data = workerData as ThreadData;
  const connection = new SqliteConnection({
    path: data.path,
    busyTimeoutMs: data.busyTimeoutMs,
    readOnly: true,
  });
  // The index's postings, built in steps after the first search (searches in between use FTS5).
  const postings = new KeywordPostings();
  const nextTurn = () => new Promise<void>((done) => setImmediate(done));
  port.on('message', (request: ThreadRequest) => {
    if (request.type === 'close') {
      void connection.close().finally(() => port.close());
      return;
    }
    try {
      if (request.type === 'search') {
        const hits = messageKeywordHits(connection, request.guildId, request.terms, request.limit, postings);
        port.postMessage({ id: request.id, hits } satisfies ThreadReply);
        if (!postings.built) void postings.build(connection, nextTurn);
      } else {
        const rows = readGuildRows(connection, request.guildId, request.dims);
        // The floats move to the store's thread; nothing is copied.
        port.postMessage({ id: request.id, rows } satisfies ThreadReply, [
          rows.vectors.buffer as ArrayBuffer,
          rows.rowIds.buffer as ArrayBuffer,
        ]);
      }
    } catch (error) {
      port.postMessage({ id: request.id, error } satisfies ThreadReply);
    }
  });
}

/**
 * The read thread (see read-thread.ts): its own read-only connection to the store's file,
 * answering requests one after another with the same code the store's own connection runs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteConnection } from '../connection.js';
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
  port.on('message', (request: ThreadRequest) => {
    if (request.type === 'close') {
      void connection.close().finally(() => port.close());
      return;
    }
    try {
      if (request.type === 'search') {
        const hits = messageKeywordHits(connection, request.guildId, request.terms, request.limit);
        port.postMessage({ id: request.id, hits } satisfies ThreadReply);
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

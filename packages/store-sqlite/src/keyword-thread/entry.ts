/**
 * The keyword thread (see keyword-thread.ts): its own read-only connection to the store's file,
 * answering message keyword searches one after another with the same code the store's own
 * connection runs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteConnection } from '../connection.js';
import { messageKeywordHits } from '../sql/message-keyword-search.js';
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
    let reply: ThreadReply;
    try {
      reply = {
        id: request.id,
        hits: messageKeywordHits(connection, request.guildId, request.terms, request.limit),
      };
    } catch (error) {
      reply = { id: request.id, error };
    }
    port.postMessage(reply);
  });
}

/**
 * The read thread (see read-thread.ts): its own read-only connection to the store's file,
 * answering requests with the same code the store's own connection runs, and an in-memory copy of
 * the message keyword index that ranks searches once built (KeywordPostings).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteConnection } from '../connection.js';
import { KeywordPostings } from '../keyword-postings/keyword-postings.js';
import { messageKeywordHits } from '../sql/message-keyword-search.js';
import { readGuildRows } from '../vector-scan/guild-rows.js';
import type { ThreadData, ThreadReply, ThreadRequest } from './protocol.js';

/** How long searches wait for the first build of the index copy (about 1 s for 50,000 long messages). */
const FIRST_BUILD_WAIT_MS = 2000;

const port = parentPort;
if (port) {
  const data = workerData as ThreadData;
  const connection = new SqliteConnection({
    path: data.path,
    busyTimeoutMs: data.busyTimeoutMs,
    readOnly: true,
  });
  // The index's postings: the first search waits for the first build (as a big guild's first
  // search waits for its vectors); builds after a rewrite run in steps while FTS5 answers.
  const postings = new KeywordPostings();
  const nextTurn = () => new Promise<void>((done) => setImmediate(done));
  let firstBuild: Promise<void> | null = null;
  let built = false;
  port.on('message', async (request: ThreadRequest) => {
    if (request.type === 'close') {
      void connection.close().finally(() => port.close());
      return;
    }
    if (request.type === 'drop') {
      postings.drop();
      return;
    }
    try {
      if (request.type === 'search') {
        if (!built) {
          firstBuild ??= postings.build(connection, nextTurn).finally(() => {
            built = true;
          });
          // A very big index keeps building in steps after this wait while FTS5 answers.
          await Promise.race([firstBuild, new Promise((done) => setTimeout(done, FIRST_BUILD_WAIT_MS))]);
        }
        const hits = messageKeywordHits(connection, request.guildId, request.terms, request.limit, {
          postings,
          windowsAround: request.windowsAround,
        });
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

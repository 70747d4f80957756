import type { MessageTextHit } from '@permafrost/core/store';

/** What the keyword thread is started with. */
export interface ThreadData {
  /** The database file (absolute). */
  readonly path: string;
  readonly busyTimeoutMs: number;
}

/** A message keyword search (`messageKeywordHits`), or the request to close the connection and end. */
export type ThreadRequest =
  | {
      readonly type: 'search';
      readonly id: number;
      readonly guildId: string;
      readonly terms: readonly string[];
      readonly limit: number;
    }
  | { readonly type: 'close' };

/** The answer to one search: its hits, or the error it failed with. */
export type ThreadReply =
  | { readonly id: number; readonly hits: MessageTextHit[] }
  | { readonly id: number; readonly error: unknown };

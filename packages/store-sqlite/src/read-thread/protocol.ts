import type { MessageTextHit } from '@permafrost/core/store';
import type { GuildRows } from '../vector-scan/guild-rows.js';

/** What the read thread is started with. */
export interface ThreadData {
  /** The database file (absolute). */
  readonly path: string;
  readonly busyTimeoutMs: number;
}

/**
 * A message keyword search (`messageKeywordHits`), a guild's message vectors (`readGuildRows`), the
 * notice that messages were deleted or edited (drop the index copy; no answer), or the request to
 * close the connection and end.
 */
export type ThreadRequest =
  | {
      readonly type: 'search';
      readonly id: number;
      readonly guildId: string;
      readonly terms: readonly string[];
      readonly limit: number;
      readonly windowsAround: number;
    }
  | { readonly type: 'vectors'; readonly id: number; readonly guildId: string; readonly dims: number }
  | { readonly type: 'drop' }
  | { readonly type: 'close' };

/** The answer to one request, or the error it failed with. */
export type ThreadReply =
  | { readonly id: number; readonly hits: MessageTextHit[] }
  | { readonly id: number; readonly rows: GuildRows }
  | { readonly id: number; readonly error: unknown };

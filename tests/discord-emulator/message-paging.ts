import { invalidBody } from './http-errors.js';
import { lowerBound } from './snowflake.js';
import type { ApiMessage } from './types.js';
import type { World } from './world.js';

/**
 * `GET /channels/:id/messages` as Discord answers it: newest first, `limit` 1–100 (default 50), and
 * at most one of `before` (older than the id), `after` (newer, the oldest of them first in the
 * window, still returned newest first) or `around` (the id and its neighbours). Ids are found by
 * binary search, so a page costs O(log n + limit) however long the channel is.
 */
export function pageMessages(world: World, channelId: string, query: URLSearchParams): ApiMessage[] {
  const limit = clampInt(query.get('limit'), 50, 1, 100);
  const ids = world.messageIdsIn(channelId);
  const before = query.get('before');
  const after = query.get('after');
  const around = query.get('around');
  let from: number; // the window is ids[from, to), returned newest first
  let to: number;
  if (after !== null) {
    from = lowerBound(ids, after);
    if (ids[from] === after) from++;
    to = Math.min(ids.length, from + limit);
  } else if (around !== null) {
    const at = lowerBound(ids, around);
    const pivot = ids[at] === around ? at + 1 : at; // the id itself counts among the older half
    from = Math.max(0, pivot - Math.ceil(limit / 2));
    to = Math.min(ids.length, pivot + Math.floor(limit / 2));
  } else {
    to = before === null ? ids.length : lowerBound(ids, before);
    from = Math.max(0, to - limit);
  }
  const out: ApiMessage[] = [];
  for (let i = to - 1; i >= from; i--) {
    const message = world.messages.get(ids[i] as string);
    if (message) out.push(restMessage(message));
  }
  return out;
}

/**
 * A message as REST returns it. `guild_id`, the author's `member` and the mentioned users' `member`
 * are extra fields of the MESSAGE_CREATE / MESSAGE_UPDATE gateway events only; a message read over
 * REST carries none of them (a client resolves members from its cache or fetches them).
 */
export function restMessage(message: ApiMessage): ApiMessage {
  const { guild_id: _guild, member: _member, referenced_message: referenced, ...rest } = message;
  const out: ApiMessage = { ...rest, mentions: message.mentions.map(({ member: _m, ...user }) => user) };
  if (referenced !== undefined) out.referenced_message = referenced && restMessage(referenced);
  return out;
}

export function clampInt(raw: string | null, fallback: number, min: number, max: number): number {
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw invalidBody(`limit: must be an integer between ${min} and ${max}`);
  }
  return value;
}

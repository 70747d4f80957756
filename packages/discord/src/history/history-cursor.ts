import type { Memory } from '@permafrost/core';

/**
 * How far the import of one channel got, kept in `memory.cursors` under `discord:history:<id>`.
 * Every message with `bottom <= id <= top` is stored; `complete` means `bottom` is the channel's
 * first message. `gap` is a catch-up in progress above `top` (messages posted after an earlier
 * run): `gap.bottom <= id <= gap.top` is stored too, and it joins the rest once it reaches `top`.
 */
export interface ChannelCursor {
  readonly top: string;
  readonly bottom: string;
  readonly complete: boolean;
  readonly gap?: { readonly top: string; readonly bottom: string };
}

const VERSION = 1;
const SNOWFLAKE = /^\d{1,20}$/;

export const cursorKey = (channelId: string) => `discord:history:${channelId}`;

/** The stored cursor, or null (none yet, or unreadable: the import then starts over, deduplicated). */
export async function readCursor(
  memory: Memory,
  guildId: string,
  channelId: string,
): Promise<ChannelCursor | null> {
  const raw = await memory.cursors.get({ guildId, key: cursorKey(channelId) });
  if (raw === null) return null;
  try {
    return parseCursor(JSON.parse(raw) as unknown);
  } catch {
    return null;
  }
}

export async function writeCursor(
  memory: Memory,
  guildId: string,
  channelId: string,
  cursor: ChannelCursor,
): Promise<void> {
  await memory.cursors.set({
    guildId,
    key: cursorKey(channelId),
    value: JSON.stringify({ v: VERSION, ...cursor }),
  });
}

function parseCursor(value: unknown): ChannelCursor | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (v['v'] !== VERSION || !isId(v['top']) || !isId(v['bottom']) || typeof v['complete'] !== 'boolean')
    return null;
  const gap = v['gap'] as Record<string, unknown> | undefined;
  if (gap !== undefined && !(isId(gap['top']) && isId(gap['bottom']))) return null;
  return {
    top: v['top'],
    bottom: v['bottom'],
    complete: v['complete'],
    ...(gap ? { gap: { top: gap['top'] as string, bottom: gap['bottom'] as string } } : {}),
  };
}

const isId = (value: unknown): value is string => typeof value === 'string' && SNOWFLAKE.test(value);

/** Numeric order of two snowflakes. */
export function compareIds(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

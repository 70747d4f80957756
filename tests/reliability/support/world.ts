import type { MessageEventInput } from '@permafrost/core';

export const GUILD_A = '910000000000000001';
export const GUILD_B = '920000000000000001';
export const CHANNEL_A = '910000000000000002';
export const CHANNEL_B = '920000000000000002';

export interface Member {
  readonly id: string;
  readonly name: string;
}

const NAMES = [
  'Alice',
  'Bruno',
  'Chiara',
  'Dmitri',
  'Esther',
  'Farid',
  'Greta',
  'Hiroshi',
  'Ines',
  'Jonas',
  'Kofi',
  'Lena',
  'Mateo',
  'Nadia',
  'Oskar',
  'Priya',
  'Quentin',
  'Rosa',
  'Sven',
  'Tamar',
  'Umar',
  'Vera',
  'Wanda',
  'Xavier',
] as const;

/** Member `i` of a guild: a snowflake-like id (unique per guild prefix) and a display name. */
export function member(i: number, prefix = '1000'): Member {
  return { id: `${prefix}${String(i).padStart(14, '0')}`, name: NAMES[i % NAMES.length] as string };
}

/** The first `n` members. */
export function members(n: number, prefix = '1000'): Member[] {
  return Array.from({ length: n }, (_, i) => member(i, prefix));
}

export interface ChatOptions {
  readonly guildId?: string;
  readonly channelId?: string;
  readonly at?: Date | string;
  readonly mentions?: readonly string[];
}

/** A message event as a bot hands it to `observe`. */
export function chat(id: string, author: Member, content: string, o: ChatOptions = {}): MessageEventInput {
  return {
    messageId: id,
    guildId: o.guildId ?? GUILD_A,
    channelId: o.channelId ?? CHANNEL_A,
    authorId: author.id,
    authorUsername: author.name.toLowerCase(),
    authorDisplayName: author.name,
    content,
    createdAt: o.at ?? new Date(),
    mentionIds: [...(o.mentions ?? [])],
  };
}

/**
 * The frame of every marker. It holds `u`, a letter Crockford base32 (the ULID alphabet of every
 * Permafrost id) never uses, so no random id can ever contain a marker stem.
 */
export const MARKER_FRAME = 'zu';

/** The start of every marker of a tag (`zu` + tag): what leak detectors search for. */
export const markerStem = (tag: string) => `${MARKER_FRAME}${tag}`;

/**
 * A lower-case marker word that exists nowhere else: letters only (so it is one keyword term and
 * never looks like an id or a roster token), `zu` + the tag + six scrambled letters + `zu`. The
 * scrambling keeps markers of one tag far apart for embedders (no shared n-grams but the frame).
 */
export function marker(tag: string, n: number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  let h = 2166136261;
  for (const c of `${tag}#${n}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  let s = '';
  for (let i = 0; i < 6; i++) {
    s += letters[h % 26];
    h = Math.imul(h ^ (h >>> 13), 2654435761) >>> 0;
  }
  return `${MARKER_FRAME}${tag}${s}${MARKER_FRAME}`;
}

/** The self-statement the oracle turns into `<Name> collects <marker> stamps`. */
export const stampMessage = (word: string) => `I collect ${word} stamps from old flea markets every month`;
/** The fact text the oracle writes for it. */
export const stampFact = (name: string, word: string) => `${name} collects ${word} stamps`;

import { tokenize } from '../text/analyze.js';

/** Phrases that mark durable self-disclosure; a batch containing one is always extracted. */
export const DURABLE_MARKERS: readonly string[] = [
  'my name is',
  'call me',
  'i go by',
  'i live',
  'i moved',
  'moved to',
  'i work',
  'works at',
  'i study',
  'studying',
  'allergic',
  'birthday',
  'pronouns',
  'my partner',
  'my wife',
  'my husband',
  'married',
  'graduated',
  'i quit',
  'i stopped',
  'no longer',
  'favorite',
  'favourite',
  'i was born',
  "i'm from",
  'im from',
  'i am from',
  'my dog',
  'my cat',
  'i have a',
  'i love',
  'i hate',
];

export interface NoiseGateOptions {
  /** Fewer meaningful characters than this in the whole batch → skip. */
  readonly minMeaningfulChars?: number;
  /** Fewer words than this… */
  readonly minWords?: number;
  /** …and no message at least this long → skip. */
  readonly minLongMessageChars?: number;
}

export type NoiseVerdict =
  | { readonly extract: true; readonly reason: 'durable_marker' | 'enough_content' }
  | { readonly extract: false; readonly reason: 'too_little_text' | 'chatter' };

const URL = /https?:\/\/\S+|www\.\S+/gi;
const MENTION = /<[@#][!&]?\d+>|<a?:\w+:\d+>/g;

/** Decides without a model call whether a batch could hold a durable fact. */
export function noiseGate(contents: readonly string[], options: NoiseGateOptions = {}): NoiseVerdict {
  const minMeaningful = options.minMeaningfulChars ?? 8;
  const minWords = options.minWords ?? 12;
  const minLong = options.minLongMessageChars ?? 28;
  const cleaned = contents.map((c) => c.replace(URL, ' ').replace(MENTION, ' ').replace(/\s+/g, ' ').trim());
  const joined = cleaned.join(' ').toLowerCase();
  const meaningful = joined.replace(/[^\p{L}\p{N}]/gu, '').length;
  if (meaningful < minMeaningful) return { extract: false, reason: 'too_little_text' };
  const normalizedApostrophes = joined.replace(/’/g, "'");
  if (DURABLE_MARKERS.some((m) => normalizedApostrophes.includes(m)))
    return { extract: true, reason: 'durable_marker' };
  const words = tokenize(joined).length;
  const longest = Math.max(0, ...cleaned.map((c) => c.length));
  if (words < minWords && longest < minLong) return { extract: false, reason: 'chatter' };
  return { extract: true, reason: 'enough_content' };
}

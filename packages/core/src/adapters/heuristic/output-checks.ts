/**
 * Self-checks on every emitted fact text, mirroring the pipeline's quality gates so the
 * extractor never proposes something the gates would reject: length, tokens and ids, questions,
 * refusal or denial phrases, hearsay markers, near copies of the cited message.
 */
import { sequenceRatio } from '../../text/sequence-ratio.js';

export const MIN_TEXT_CHARS = 12;
export const MAX_TEXT_CHARS = 400;
/** Stricter than the pipeline's 0.88 so that small normalisation differences never tip it over. */
export const MAX_COPY_RATIO = 0.86;

const FORBIDDEN_SUBSTRINGS = [
  'i cannot',
  "i can't",
  'i apologize',
  "i'm sorry",
  'as an ai',
  "i'm unable",
  'against my guidelines',
  'expressed a belief',
  'heard that',
  'claims that',
  'read online',
  'someone said',
  'rumor',
];
const FORBIDDEN_PATTERNS = [
  /\bp\d+\b/i,
  /\d{15,}/,
  /<[@#]/,
  /\b(?:no no no|i don'?t|stop it)\b/i,
  /^(?:who|what|when|where|why|how)\b/i,
  /^(?:do|does|did|is|are|was|were|can|could|should|would|has|have|had) (?:i|you|he|she|it|we|they|there|this|that)\b/i,
  /https?:\/\/|www\./i,
];

const squash = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** Whether a fact text is acceptable for the given cited message. */
export function acceptableText(text: string, source: string): boolean {
  const normalized = squash(text);
  if (normalized.length < MIN_TEXT_CHARS || text.length > MAX_TEXT_CHARS) return false;
  if (text.trim().endsWith('?')) return false;
  if (FORBIDDEN_SUBSTRINGS.some((s) => normalized.includes(s))) return false;
  if (FORBIDDEN_PATTERNS.some((re) => re.test(text))) return false;
  const cited = squash(source);
  if (normalized === cited) return false;
  // Upper bound of the ratio from the lengths alone: a short fact cannot copy a long message.
  const bound = (2 * Math.min(normalized.length, cited.length)) / (normalized.length + cited.length);
  return bound < MAX_COPY_RATIO || sequenceRatio(normalized, cited) < MAX_COPY_RATIO;
}

/** The first acceptable phrasing, with a final period stripped, or null. */
export function pickText(texts: readonly string[], source: string): string | null {
  for (const candidate of texts) {
    const text = candidate
      .replace(/\s+/g, ' ')
      .replace(/[\s.]+$/, '')
      .trim();
    if (acceptableText(text, source)) return text;
  }
  return null;
}

import { normalizeText } from '../text/analyze.js';
import { sequenceRatio } from '../text/sequence-ratio.js';
import { classifyDirective } from './directive-classifier.js';
import { DURABLE_MARKERS } from './noise-gate.js';

export type GateVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };
const pass: GateVerdict = { ok: true };
const reject = (reason: string): GateVerdict => ({ ok: false, reason });

export const MIN_FACT_CHARS = 12;
export const MAX_FACT_CHARS = 400;

const REFUSAL = [
  'i cannot',
  "i can't",
  'i apologize',
  "i'm sorry",
  'as an ai',
  "i'm unable",
  'i am unable',
  'against my guidelines',
];
const META = [
  'operations',
  'chain of thought',
  'let me think',
  'final answer:',
  'empty operations',
  'as requested',
  'here is the json',
  'based on the messages',
  'roster token',
  'the participants',
];
const SNOWFLAKE = /\b\d{15,25}\b/;
const MENTION_TAG = /<@[!&]?\d+>/;
const ROSTER_TOKEN = /\bp\d{1,3}\b/i;
const WH_START = /^(who|what|when|where|why|how|which)\b/i;
const AUX =
  '(?:do|does|did|is|are|was|were|am|can|could|should|would|will|shall|may|might|must|has|have|had)';
/** A wh-word in question order: "When did …", "Where is …", "What's …". */
const WH_INVERTED = new RegExp(`^(who|what|when|where|why|how|which)(?:'s|\\s+${AUX}\\b)`, 'i');
/** "When"/"where" open a subordinate clause of a statement unless the word order is a question's. */
const SUBORDINATING_WH = /^(when|where)\s/i;
const AUX_QUESTION =
  /^(do|does|did|is|are|was|were|can|could|should|would|will|has|have|had)\s+(i|you|he|she|it|we|they|there|this|that|anyone|someone)\b/i;
const DENIAL = /\b(no no no|stop it)\b/i;

/**
 * A wh-opening reads as a question, except "when …"/"where …" followed by a clause in statement
 * order ("When Maria was younger, her family had money problems"): those are adverbial clauses.
 */
function whQuestion(lower: string): boolean {
  if (!WH_START.test(lower)) return false;
  if (WH_INVERTED.test(lower)) return true;
  return !SUBORDINATING_WH.test(lower);
}

/** Text hygiene: length, refusals, model meta-talk, ids, mention tags, roster tokens, questions. */
export function hygieneGate(text: string): GateVerdict {
  const t = text.trim();
  if (t.length === 0) return reject('empty');
  if (t.length > MAX_FACT_CHARS) return reject('too_long');
  if (normalizeText(t).length < MIN_FACT_CHARS) return reject('too_short');
  const lower = t.toLowerCase().replace(/’/g, "'");
  if (REFUSAL.some((r) => lower.includes(r))) return reject('refusal');
  const meta = META.filter((m) => lower.includes(m)).length;
  if (meta >= 2 || (meta >= 1 && t.length > 200)) return reject('llm_meta');
  if (SNOWFLAKE.test(t)) return reject('snowflake_in_text');
  if (MENTION_TAG.test(t)) return reject('mention_tag_in_text');
  if (ROSTER_TOKEN.test(t)) return reject('roster_token_in_text');
  if (t.endsWith('?') || whQuestion(lower) || AUX_QUESTION.test(t)) return reject('question');
  if (DENIAL.test(t)) return reject('rant_denial');
  return pass;
}

const URL_RE = /https?:\/\/\S+|www\.\S+/gi;
const HAS_URL = /https?:\/\/\S+|www\.\S+/i;
const SHARE_VERB = /\b(shared|posted|sent|uploaded|linked|dropped)\b/i;
const MEDIA_NOUN =
  /\b(link|video|gif|image|photo|pic|picture|meme|file|clip|youtube|tiktok|tenor|screenshot)s?\b/i;

/** A link or "shared a video" is not a durable fact. */
export function ephemeralShareGate(text: string): GateVerdict {
  const withoutUrls = text.replace(URL_RE, '').replace(/[\s\p{P}]/gu, '');
  if (withoutUrls.length === 0) return reject('bare_link');
  if (SHARE_VERB.test(text) && MEDIA_NOUN.test(text)) return reject('media_share');
  if (SHARE_VERB.test(text) && HAS_URL.test(text)) return reject('link_share');
  return pass;
}

/** A fact must be written by the extractor, not copied from the message it cites. */
export function plagiarismGate(text: string, cited: readonly string[], ratio = 0.88): GateVerdict {
  const a = normalizeText(text.replace(URL_RE, ''));
  for (const source of cited) {
    const b = normalizeText(source.replace(URL_RE, ''));
    if (a === b) return reject('raw_copy');
    if (a.length > 20 && b.length > 20 && sequenceRatio(a, b) >= ratio) return reject('near_copy');
  }
  return pass;
}

const HEARSAY = [
  'expressed a belief',
  'heard that',
  'claims that',
  'read online',
  'someone said',
  'rumor',
  'rumour',
  'apparently',
];

/** Confidence floor; hearsay needs a higher floor and a durable marker. */
export function confidenceGate(
  text: string,
  confidence: number,
  minConfidence: number,
  hearsayMinConfidence: number,
): GateVerdict {
  const lower = text.toLowerCase();
  if (HEARSAY.some((h) => lower.includes(h))) {
    const durable = DURABLE_MARKERS.some((m) => lower.includes(m));
    return confidence >= hearsayMinConfidence && durable ? pass : reject('ephemeral_claim');
  }
  return confidence >= minConfidence ? pass : reject('below_min_confidence');
}

/** Openings of messages that address the model (a fact sourced from one is not stored). */
const INJECTION: readonly RegExp[] = [
  /\bignore (all |any )?(the )?(previous|prior|above|earlier) (instructions|messages|rules|prompts?)\b/i,
  /\b(disregard|forget) (all |any )?(your |the )?(previous |prior )?(instructions|rules|guidelines|system prompt)\b/i,
  /\bsystem prompt\b/i,
  /\byou (are|must|will) now\b/i,
  /\b(remember|store|save|note) (that )?(everyone|everybody|all (users|members|people))\b/i,
  /\bnew instructions?\s*:/i,
  /\b(as|you are) (an? )?(ai|assistant|language model)\b.*\b(must|should|will)\b/i,
  /\bjailbreak\b|\bdeveloper mode\b/i,
  /\bfrom now on,? (you|always)\b/i,
];

/**
 * True when a message reads as instructions to the model: the openings above, prompt syntax
 * (role markers, chat-template tags) or overrides of its instructions. Messages may address the
 * bot ("you should know I moved"), so only these strong signals apply to sources.
 */
export function looksLikeInjection(text: string): boolean {
  if (INJECTION.some((re) => re.test(text))) return true;
  const { signal } = classifyDirective(text);
  return signal === 'prompt_syntax' || signal === 'instruction_override';
}

/**
 * Rejects candidates that are directives (instructions to the assistant, authority over it, rules
 * for it: `classifyDirective`, the same for the offline and the model path), or that are sourced
 * from a message that is an injection.
 */
export function injectionGate(text: string, cited: readonly string[]): GateVerdict {
  if (classifyDirective(text).directive || INJECTION.some((re) => re.test(text)))
    return reject('prompt_injection');
  if (cited.some(looksLikeInjection)) return reject('injection_source');
  return pass;
}

/**
 * What the extractor refuses before any rule runs. Message level: platform ids, prompt
 * injection, media shares. Sentence level: questions, hypotheticals, sarcasm. Clause level:
 * transient states ("right now", "today").
 */
import { UNPLEASANT } from '../../text/word-lists.js';

const SNOWFLAKE = /\d{15,}/;
const MENTION_TAG = /<[@#][!&]?\d*>?|<@/;
const INJECTION = [
  /\b(?:ignore|disregard|forget|override|bypass)\b[^.!?\n]{0,40}\b(?:instructions?|prompts?|rules|guidelines|context|directives?|programming)\b/i,
  /\b(?:system prompt|you are now|act as an?|pretend (?:to be|you are)|new instructions|jailbreak|developer mode|dan mode|as an ai)\b/i,
  /\bfrom now on,? (?:you|always|remember|store)\b/i,
  /\b(?:remember|store|save|record|note) (?:that )?(?:everyone|everybody|all (?:of )?(?:you|us|users|members)|every (?:user|member))\b/i,
  /\b(?:add|write|insert|store|save) (?:this|the following|a fact|facts?) (?:to|in|into) (?:your )?(?:memory|memories|database|db)\b/i,
  /\b(?:your|the bot's) (?:memory|memories) (?:should|must|will) (?:say|show|contain|store)\b/i,
];
const MEDIA_SHARE =
  /\b(?:shared|posted|sent|uploaded|linked|dropped|check out|checkout|look at|watch|listen to) (?:this|a|my|the|that|these|some)? ?(?:new |funny |cool |great )?(?:link|video|vid|gif|image|img|pic|picture|photo|meme|file|clip|song|track|tiktok|youtube|reel|short|screenshot|thread|post)s?\b/i;
const BOT_COMMAND = /^\s*[!/.$?>][a-z]/i;

/** True when nothing in the message may become a fact. */
export function declineMessage(content: string): boolean {
  if (SNOWFLAKE.test(content) || MENTION_TAG.test(content)) return true;
  if (BOT_COMMAND.test(content)) return true;
  return INJECTION.some((re) => re.test(content));
}

/** A sentence that only shares media ("check out this video"). */
export function isMediaShare(sentence: string): boolean {
  return MEDIA_SHARE.test(sentence);
}

const WH_START = /^(?:who|whom|whose|what|when|where|why|how|which|whats|wat|wut)\b/i;
const AUX_START =
  /^(?:do|does|did|is|are|was|were|can|could|should|would|will|has|have|had|am|may|might|shall)(?: not)? (?:i|you|he|she|it|we|they|there|this|that|anyone|anybody|someone|somebody|everyone|y'all|yall|ya)\b/i;
const ASKING =
  /^(?:anyone|anybody|does anyone|has anyone|is anyone|any1|any ideas|guess what|wonder if|i wonder)\b/i;

/** A question: "?" at the end, or a wh-word or auxiliary-plus-pronoun opening. */
export function isQuestion(sentence: string, endsWithQuestionMark: boolean): boolean {
  if (endsWithQuestionMark) return true;
  const s = sentence.trim();
  return WH_START.test(s) || AUX_START.test(s) || ASKING.test(s);
}

const HYPOTHETICAL =
  /\b(?:if|unless|would|wish|wished|imagine|imagining|suppose|supposing|hypothetically|pretend|pretending|rather|could|might|someday|one day|in theory|in another life|dream(?:ed|t)? (?:of|about)|fantasi[sz]e)\b/i;

/** "if I were…", "would you rather", "I wish I lived in…", "I'd love to…". */
export function isHypothetical(sentence: string): boolean {
  return HYPOTHETICAL.test(sentence);
}

const SARCASM_OPENER =
  /^(?:oh (?:great|joy|wonderful|good|fantastic|boy)|yeah right|sure jan|wow great|just great|great,? another|love that for me|how fun|what a joy|nothing like)\b/i;
const LAUGH_TAIL = /(?:\blol\b|\blmao\b|\blmfao\b|\brofl\b|\bhaha\w*|\bhehe\w*|\bxd\b|\bkek\b|\bsmh\b)/i;

/** "/s", a sarcastic opener, or "I love <something unpleasant> lol". */
export function isSarcastic(sentence: string): boolean {
  if (/(?:^|\s)\/s\b/.test(sentence) || SARCASM_OPENER.test(sentence.trim())) return true;
  if (!LAUGH_TAIL.test(sentence)) return false;
  const lower = sentence.toLowerCase();
  if (!/\b(?:love|loves|like|likes|enjoy|enjoys|adore|favorite|best)\b/.test(lower)) return false;
  return UNPLEASANT.some((word) => new RegExp(`\\b${word}\\b`).test(lower));
}

const TRANSIENT =
  /\b(?:right now|rn|atm|at the moment|today|tonight|this morning|this afternoon|this evening|for now|brb|afk|gtg|g2g|omw|for a bit|for a sec|for a minute|later today|this week|currently eating)\b/i;

/** Words that pin a statement to now ("I'm playing X rn") rather than to who someone is. */
export function isTransient(clause: string): boolean {
  return TRANSIENT.test(clause);
}

/**
 * Memory commands addressed to the bot: "remember that …", "forget …", "update: …", "what do you
 * know about me". COMMAND_GATE is the cheap filter: only a message it matches may be sent to a
 * model at all; everything else is chatter (`none`) with no call.
 */
import type { CommandClassification } from './task-contracts.js';

/** Only messages this matches may be classified by a model. */
export const COMMAND_GATE =
  /\b(?:remember|forget|don'?t remember|do not remember|update|what do you know|what do you remember|recall|save this|purge your memories|never remember|memori[sz]e|correction)\b/i;

const POLITE =
  /^(?:(?:@[\w.-]+|hey|hi|yo|ok|okay|so|bot|hey bot|please|pls|plz|kindly|can you|could you|would you|will you|can u|could u|i need you to|i want you to|go ahead and|also)\b[,:]?\s*)+/i;
const QUERY =
  /^(?:what do you (?:know|remember)|what (?:else )?have you (?:learned|remembered|got|stored|saved)|what(?:'s| is) in your memory|tell me what you (?:know|remember)|do you (?:remember|recall)|recall|what do you have (?:on|about))\b\s*(.*)$/i;
const FORGET =
  /^(?:forget|don'?t remember|do not remember|never remember|stop remembering|purge your memories|delete|erase|wipe|unlearn)\b\s*(.*)$/i;
const UPDATE = /^(?:update(?: your memory| your notes| that)?|correction)\s*(?:[:,-]|that\b)?\s*(.*)$/i;
const REMEMBER = /^(?:remember|save this|memori[sz]e|keep in mind|make a note)\b\s*(?:[:,-]\s*)?(.*)$/i;
const TARGET_LEAD =
  /^(?:that|this|about|everything about|all about|anything about|what i (?:said|told you|mentioned) about|what i said|the fact that|how|me saying)\s+/i;

function target(raw: string): string {
  let text = raw.trim();
  for (let i = 0; i < 3; i++) text = text.replace(TARGET_LEAD, '');
  text = text
    .replace(/^["'`]+|["'`]+$/g, '')
    .replace(/[\s,.:!?]+$/, '')
    .trim();
  if (/^(?:that|this|it|everything|all of (?:it|that))$/i.test(text)) return '';
  return text.slice(0, 2000);
}

/** Classify a message; deterministic, never calls anything. */
export function classifyCommandHeuristically(text: string): CommandClassification {
  if (!COMMAND_GATE.test(text)) return { action: 'none', targetText: '', confidence: 0 };
  const body = text.trim().replace(POLITE, '');
  const query = QUERY.exec(body);
  if (query !== null) {
    const about = /\babout\s+(.+)$/i.exec(query[1] ?? '');
    return { action: 'query', targetText: target(about?.[1] ?? query[1] ?? ''), confidence: 0.85 };
  }
  const forget = FORGET.exec(body);
  if (forget !== null) {
    const purge = /^purge/i.test(body);
    return {
      action: 'forget',
      targetText: purge ? '' : target(forget[1] ?? ''),
      confidence: purge ? 0.8 : 0.85,
    };
  }
  const update = UPDATE.exec(body);
  if (update !== null) {
    const t = target(update[1] ?? '');
    if (t.length > 0 && !/^(?:is|was|coming|out|when|will)\b/i.test(t))
      return { action: 'update', targetText: t, confidence: 0.8 };
  }
  const remember = REMEMBER.exec(body);
  if (remember !== null) {
    const t = target(remember[1] ?? '');
    if (t.length > 0 && !/^(?:when|the time|back when|last)\b/i.test(t))
      return { action: 'remember', targetText: t, confidence: 0.85 };
  }
  const inline = /\b(?:please|pls) remember that (.+)$/i.exec(body);
  if (inline !== null) return { action: 'remember', targetText: target(inline[1] ?? ''), confidence: 0.6 };
  return { action: 'none', targetText: '', confidence: 0.3 };
}

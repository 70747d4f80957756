/**
 * LongMemEval-S development split (../shared/data/longmemeval-s-dev, PROVENANCE.md): one record per
 * file. The retrieval corpus of a question is its user turns, one document each, named
 * `<session id>_<1-based turn index over all turns>`; a turn of an `answer_*` session without
 * `has_answer` is renamed `noans_*`. Gold = the user turns with `has_answer`.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface LmeTurn {
  /** Protocol document id (`<session>_<index>`, `noans_…` for non-evidence turns of answer sessions). */
  readonly docId: string;
  /** The session the turn belongs to (as named in the haystack). */
  readonly sessionId: string;
  /**
   * The session as the session-level score names it: the document id without its turn index, so
   * the non-evidence turns of an answer session count for a `noans_*` session, not the gold one.
   */
  readonly sessionKey: string;
  readonly content: string;
  readonly at: Date;
  readonly gold: boolean;
}

export interface LmeQuestion {
  readonly questionId: string;
  readonly questionType: string;
  readonly question: string;
  readonly questionDate: Date;
  /** Sessions in haystack order, each a list of its user turns in order. */
  readonly sessions: readonly { readonly sessionId: string; readonly turns: readonly LmeTurn[] }[];
  readonly goldTurns: readonly string[];
  readonly goldSessions: readonly string[];
}

interface RawTurn {
  readonly role: string;
  readonly content: string;
  readonly has_answer?: boolean;
}

interface RawRecord {
  readonly question_id: string;
  readonly question_type: string;
  readonly question: string;
  readonly question_date: string;
  readonly haystack_session_ids: readonly string[];
  readonly haystack_dates: readonly string[];
  readonly haystack_sessions: readonly (readonly RawTurn[])[];
}

/** "2023/05/20 (Sat) 02:42" → that minute, UTC. */
export function parseLmeDate(s: string): Date {
  const m = /^(\d{4})\/(\d{2})\/(\d{2})\s*(?:\([A-Za-z]+\))?\s*(\d{2}):(\d{2})/.exec(s.trim());
  if (!m) throw new Error(`unreadable LongMemEval date: ${s}`);
  const [, y, mo, d, h, mi] = m.map(Number) as number[];
  return new Date(Date.UTC(y as number, (mo as number) - 1, d, h, mi));
}

/** Turns within a session are a minute apart (the data gives one time per session). */
const TURN_SPACING_MS = 60_000;

export function questionFromRecord(r: RawRecord): LmeQuestion {
  const sessions = r.haystack_sessions.map((raw, si) => {
    const sessionId = r.haystack_session_ids[si] as string;
    const start = parseLmeDate(r.haystack_dates[si] as string);
    const turns: LmeTurn[] = [];
    raw.forEach((t, ti) => {
      if (t.role !== 'user') return;
      const gold = t.has_answer === true;
      const base = `${sessionId}_${ti + 1}`;
      const docId = !gold && sessionId.startsWith('answer') ? base.replace(/^answer/, 'noans') : base;
      turns.push({
        docId,
        sessionId,
        sessionKey: docId.replace(/_\d+$/, ''),
        content: t.content,
        at: new Date(start.getTime() + ti * TURN_SPACING_MS),
        gold,
      });
    });
    return { sessionId, turns };
  });
  const goldTurns = sessions.flatMap((s) => s.turns.filter((t) => t.gold).map((t) => t.docId));
  return {
    questionId: r.question_id,
    questionType: r.question_type,
    question: r.question,
    questionDate: parseLmeDate(r.question_date),
    sessions,
    goldTurns,
    goldSessions: [
      ...new Set(sessions.flatMap((s) => s.turns.filter((t) => t.gold).map((t) => t.sessionKey))),
    ],
  };
}

/** Every question of the split, in file-name order (scored or not: see `goldTurns`). */
export async function loadLongMemEval(dir: string): Promise<LmeQuestion[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  const out: LmeQuestion[] = [];
  for (const f of files) out.push(questionFromRecord(JSON.parse(await readFile(join(dir, f), 'utf8'))));
  return out;
}

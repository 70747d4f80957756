import { readFile } from 'node:fs/promises';

/** One LoCoMo turn (dialogue utterance). */
export interface Turn {
  readonly diaId: string;
  readonly session: number;
  readonly index: number;
  readonly speaker: string;
  readonly text: string;
  readonly blipCaption: string | null;
  readonly at: Date;
}

export interface Observation {
  readonly session: number;
  readonly speaker: string;
  readonly text: string;
  readonly diaIds: readonly string[];
  readonly at: Date;
}

export interface Question {
  readonly question: string;
  readonly category: number;
  /** Normalised evidence dia_ids (benchmarks.md §1.3 step 3). */
  readonly evidence: readonly string[];
}

export interface Conversation {
  readonly sampleId: string;
  readonly speakers: readonly [string, string];
  readonly turns: readonly Turn[];
  readonly observations: readonly Observation[];
  readonly questions: readonly Question[];
}

const DIA_ID = /^D:?(\d+):(\d+)$/;

/** Splits on `[;,\s]+`, accepts `D?<s>:<t>` (`D:11:26` → `D11:26`, `D30:05` → `D30:5`), drops the rest. */
export function normalizeEvidence(raw: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const e of raw)
    for (const part of String(e).split(/[;,\s]+/)) {
      const m = DIA_ID.exec(part);
      if (m) out.push(`D${Number(m[1])}:${Number(m[2])}`);
    }
  return [...new Set(out)];
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** "1:56 pm on 8 May, 2023" → a UTC Date. */
export function parseSessionDate(s: string): Date {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(s);
  if (!m) throw new Error('unrecognised LoCoMo session date');
  let hour = Number(m[1]) % 12;
  if ((m[3] as string).toLowerCase() === 'pm') hour += 12;
  const month = MONTHS.indexOf((m[5] as string).toLowerCase());
  if (month < 0) throw new Error('unrecognised LoCoMo month');
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2])));
}

interface RawTurn {
  readonly speaker: string;
  readonly dia_id: string;
  readonly text?: string;
  readonly blip_caption?: string;
}

interface RawQa {
  readonly question: string;
  readonly category: number;
  readonly evidence?: readonly unknown[];
}

interface RawSample {
  readonly sample_id: string;
  readonly conversation: Readonly<Record<string, unknown>> & {
    readonly speaker_a: string;
    readonly speaker_b: string;
  };
  readonly observation?: Readonly<Record<string, Readonly<Record<string, readonly (readonly unknown[])[]>>>>;
  readonly qa: readonly RawQa[];
}

function parseConversation(sample: RawSample): Conversation {
  const conv = sample.conversation;
  const sessionDates = new Map<number, Date>();
  const turns: Turn[] = [];
  for (const [key, value] of Object.entries(conv)) {
    const m = /^session_(\d+)$/.exec(key);
    if (!m || !Array.isArray(value)) continue;
    const session = Number(m[1]);
    const at = parseSessionDate(String(conv[`session_${session}_date_time`]));
    sessionDates.set(session, at);
    (value as RawTurn[]).forEach((t, i) => {
      const [diaId] = normalizeEvidence([t.dia_id]);
      if (!diaId) return;
      turns.push({
        diaId,
        session,
        index: i,
        speaker: String(t.speaker),
        text: String(t.text ?? ''),
        blipCaption: typeof t.blip_caption === 'string' ? t.blip_caption : null,
        // One minute per turn inside a session, so the channel has a realistic order.
        at: new Date(at.getTime() + i * 60_000),
      });
    });
  }
  turns.sort((a, b) => a.session - b.session || a.index - b.index);
  const observations: Observation[] = [];
  for (const [key, bySpeaker] of Object.entries(sample.observation ?? {})) {
    const session = Number(/session_(\d+)_observation/.exec(key)?.[1] ?? Number.NaN);
    const at = sessionDates.get(session) ?? new Date(0);
    for (const [speaker, list] of Object.entries(bySpeaker))
      for (const entry of list) {
        const [text, ids] = entry;
        observations.push({
          session,
          speaker,
          text: String(text),
          diaIds: normalizeEvidence(Array.isArray(ids) ? ids : [ids]),
          at,
        });
      }
  }
  const questions: Question[] = sample.qa.map((q) => ({
    question: String(q.question),
    category: Number(q.category),
    evidence: normalizeEvidence(q.evidence ?? []),
  }));
  return {
    sampleId: String(sample.sample_id),
    speakers: [String(conv.speaker_a), String(conv.speaker_b)],
    turns,
    observations,
    questions,
  };
}

export async function loadLocomo(path: string): Promise<Conversation[]> {
  const raw = JSON.parse(await readFile(path, 'utf8')) as RawSample[];
  return raw.map(parseConversation);
}

/** Document text of a turn exactly as the official RAG code embeds it. */
export function turnDocument(t: Turn): string {
  const base = `${t.speaker} said, "${t.text}"`;
  return t.blipCaption ? `${base} and shared ${t.blipCaption}` : base;
}

import { DAY_MS, MONTH_ABBREVIATIONS, MONTHS, monthIndex } from '../text/calendar.js';

/** A half-open UTC interval [start, end) a query refers to. */
export interface TimeWindow {
  readonly start: Date;
  readonly end: Date;
}

const MONTH = `(${MONTHS.join('|')}|${MONTH_ABBREVIATIONS.join('|')}|sept)\\.?`;
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '((?:19|20)\\d{2})';

const utc = (y: number, m: number, d = 1) => new Date(Date.UTC(y, m, d));
const dayWindow = (y: number, m: number, d: number): TimeWindow => ({
  start: utc(y, m, d),
  end: utc(y, m, d + 1),
});
const monthWindow = (y: number, m: number): TimeWindow => ({ start: utc(y, m), end: utc(y, m + 1) });
const yearWindow = (y: number): TimeWindow => ({ start: utc(y, 0), end: utc(y + 1, 0) });
const startOfDay = (t: Date) => utc(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate());

const PATTERNS: readonly {
  readonly re: RegExp;
  readonly build: (m: RegExpExecArray, now: Date) => TimeWindow | null;
}[] = [
  // 13 October 2023, 1 May, 2022
  {
    re: new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH},?\\s+${YEAR}\\b`, 'gi'),
    build: (m) => valid(Number(m[3]), monthIndex(m[2] as string), Number(m[1])),
  },
  // October 13, 2023
  {
    re: new RegExp(`\\b${MONTH}\\s+${DAY},?\\s+${YEAR}\\b`, 'gi'),
    build: (m) => valid(Number(m[3]), monthIndex(m[1] as string), Number(m[2])),
  },
  // July 2023, May of 2022
  {
    re: new RegExp(`\\b${MONTH}\\s+(?:of\\s+)?${YEAR}\\b`, 'gi'),
    build: (m) => monthWindow(Number(m[2]), monthIndex(m[1] as string)),
  },
  // in June, during August (month without a year: the latest one not after now); "may" needs "in"
  {
    re: new RegExp(`\\b(?:in|during|since|early|late|mid|last|this)\\s+${MONTH}\\b(?!\\s*\\d)`, 'gi'),
    build: (m, now) => {
      const month = monthIndex(m[1] as string);
      const year = month <= now.getUTCMonth() ? now.getUTCFullYear() : now.getUTCFullYear() - 1;
      return monthWindow(year, month);
    },
  },
  // in 2023
  {
    re: new RegExp(`\\b(?:in|during|since|of|from)\\s+${YEAR}\\b`, 'gi'),
    build: (m) => yearWindow(Number(m[1])),
  },
  {
    re: /\byesterday\b/gi,
    build: (_m, now) => ({ start: new Date(startOfDay(now).getTime() - DAY_MS), end: startOfDay(now) }),
  },
  {
    re: /\btoday\b|\btonight\b/gi,
    build: (_m, now) => ({ start: startOfDay(now), end: new Date(startOfDay(now).getTime() + DAY_MS) }),
  },
  {
    re: /\b(last|this|past)\s+(week(?:end)?|month|year)\b/gi,
    build: (m, now) => {
      const unit = (m[2] as string).toLowerCase();
      const days = unit === 'year' ? 365 : unit === 'month' ? 31 : unit === 'weekend' ? 9 : 7;
      const end = (m[1] as string).toLowerCase() === 'this' ? new Date(now.getTime() + DAY_MS) : now;
      return { start: new Date(now.getTime() - days * DAY_MS), end };
    },
  },
  {
    re: /\b(a|one|two|three|four|five|six|\d{1,2})\s+(day|week|month|year)s?\s+ago\b/gi,
    build: (m, now) => {
      const words: Record<string, number> = { a: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };
      const raw = (m[1] as string).toLowerCase();
      const n = words[raw] ?? Number(raw);
      const unit = (m[2] as string).toLowerCase();
      const days = n * (unit === 'year' ? 365 : unit === 'month' ? 30.5 : unit === 'week' ? 7 : 1);
      const center = now.getTime() - days * DAY_MS;
      const half = Math.max(1, days * 0.25) * DAY_MS;
      return { start: new Date(center - half), end: new Date(center + half) };
    },
  },
];

function valid(y: number, m: number, d: number): TimeWindow | null {
  if (m < 0 || d < 1 || d > 31) return null;
  return dayWindow(y, m, d);
}

/**
 * Time windows named in a query (English): absolute dates ("1 May 2022", "October 13, 2023"),
 * months ("July 2023", "in June"), years ("in 2023"), and expressions relative to `now`
 * ("yesterday", "last week", "two months ago"). Overlapping expressions keep the most specific.
 */
export function timeWindows(text: string, now: Date): TimeWindow[] {
  const out: TimeWindow[] = [];
  const claimed: [number, number][] = [];
  for (const { re, build } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const from = m.index;
      const to = from + m[0].length;
      if (claimed.some(([a, b]) => from < b && to > a)) continue;
      const w = build(m, now);
      if (!w) continue;
      claimed.push([from, to]);
      out.push(w);
    }
  }
  return out;
}

/**
 * How well an instant matches the windows: 1 inside one, decaying as exp(−distance / span)
 * outside (span = the window's length, at least a day), 0 with no windows.
 */
export function temporalMatch(at: Date, windows: readonly TimeWindow[]): number {
  let best = 0;
  const t = at.getTime();
  for (const w of windows) {
    const s = w.start.getTime();
    const e = w.end.getTime();
    const distance = t < s ? s - t : t >= e ? t - e : 0;
    const span = Math.max(DAY_MS, e - s);
    best = Math.max(best, Math.exp(-distance / span));
  }
  return best;
}

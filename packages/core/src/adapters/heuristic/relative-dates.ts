/**
 * Relative dates against the batch date: "tomorrow", "friday", "next friday". Event texts keep
 * the relative word (the pipeline derives TTL tiers from it) and gain the resolved ISO date.
 */
import { DAY_MS, MONTHS, monthIndex, WEEKDAYS } from '../../text/calendar.js';

/** The batch date as a UTC midnight, or null when it is not `YYYY-MM-DD…`. */
export function parseBatchDate(batchDate: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(batchDate);
  if (m === null) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return Number.isNaN(date.getTime()) ? null : date;
}

export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

const cap = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

export function monthDay(date: Date): string {
  return `${cap(MONTHS[date.getUTCMonth()] ?? '')} ${date.getUTCDate()}`;
}

/** Days from the batch date to the named weekday: 0–6, or 7–13 for "next <weekday>". */
function weekdayOffset(base: Date, weekday: number, next: boolean): number {
  const today = base.getUTCDay();
  let offset = (weekday - today + 7) % 7;
  if (next) {
    if (offset === 0) offset = 7;
    const daysLeftInWeek = (7 - today) % 7; // Monday–Sunday weeks: Sunday ends the week.
    if (offset <= daysLeftInWeek) offset += 7;
  }
  return offset;
}

/** Resolve one relative phrase to a date, or null. */
export function resolveRelative(phrase: string, batchDate: string): Date | null {
  const base = parseBatchDate(batchDate);
  if (base === null) return null;
  const lower = phrase.toLowerCase().trim();
  if (lower === 'today' || lower === 'tonight') return base;
  if (lower === 'tomorrow' || lower === 'tmrw' || lower === 'tmr') return new Date(base.getTime() + DAY_MS);
  const m = /^(next |this |on |coming )?(sunday|monday|tuesday|wednesday|thursday|friday|saturday)$/.exec(
    lower,
  );
  if (m === null) return null;
  const weekday = WEEKDAYS.indexOf(m[2] as (typeof WEEKDAYS)[number]);
  return new Date(base.getTime() + weekdayOffset(base, weekday, m[1] === 'next ') * DAY_MS);
}

const RELATIVE =
  /\b(tomorrow|tonight|today|(?:next |this |coming )?(?:sunday|monday|tuesday|wednesday|thursday|friday|saturday))\b/gi;

/** "game night is next friday" → "… next Friday (2026-09-04)"; unknown dates stay as written. */
export function annotateRelativeDates(text: string, batchDate: string): string {
  let done = false;
  return text.replace(RELATIVE, (word) => {
    const date = done ? null : resolveRelative(word, batchDate);
    const shown = word.replace(/(sunday|monday|tuesday|wednesday|thursday|friday|saturday)/i, (d) =>
      cap(d.toLowerCase()),
    );
    if (date === null) return shown;
    done = true;
    return `${shown} (${isoDate(date)})`;
  });
}

/**
 * A birthday phrase as a durable date: "march 3rd" → "on March 3", "in march" → "in March",
 * "tomorrow" → the resolved month and day. Null when nothing date-like is found.
 */
export function birthdayPhrase(raw: string, batchDate: string): string | null {
  const lower = raw
    .toLowerCase()
    .replace(/^(?:on|the)\s+/, '')
    .trim();
  const relative = resolveRelative(lower.replace(/^(?:on )/, ''), batchDate);
  if (relative !== null) return `on ${monthDay(relative)}`;
  const monthFirst = /^([a-z]+)\.? (\d{1,2})(?:st|nd|rd|th)?\b/.exec(lower);
  const dayFirst = /^(\d{1,2})(?:st|nd|rd|th)? (?:of )?([a-z]+)\b/.exec(lower);
  const [monthWord, day] =
    monthFirst !== null
      ? [monthFirst[1], monthFirst[2]]
      : dayFirst !== null
        ? [dayFirst[2], dayFirst[1]]
        : [null, null];
  if (monthWord != null && day != null) {
    const month = monthIndex(monthWord);
    const d = Number(day);
    if (month >= 0 && d >= 1 && d <= 31) return `on ${cap(MONTHS[month] ?? '')} ${d}`;
  }
  const inMonth = /^(?:in )?([a-z]+)$/.exec(lower);
  if (inMonth !== null) {
    const month = monthIndex(inMonth[1] ?? '');
    if (month >= 0) return `in ${cap(MONTHS[month] ?? '')}`;
  }
  const numeric = /^(\d{1,2})[/.-](\d{1,2})$/.exec(lower);
  if (numeric !== null) return `on ${numeric[1]}/${numeric[2]}`;
  return null;
}

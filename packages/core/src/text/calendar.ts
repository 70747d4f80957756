/** Calendar words shared by the relative-date annotator (ingest) and time expressions (recall). */
export const DAY_MS = 86_400_000;

export const WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;

export const MONTHS = [
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
] as const;

/** Three-letter month abbreviations, in month order. */
export const MONTH_ABBREVIATIONS = MONTHS.map((m) => m.slice(0, 3));

/**
 * Month index (0–11) of a month word: full name, three-letter abbreviation or "sept", any case,
 * one trailing dot allowed; -1 for anything else.
 */
export function monthIndex(word: string): number {
  const w = word.toLowerCase().replace(/\.$/, '');
  if (w === 'sept') return 8;
  const full = (MONTHS as readonly string[]).indexOf(w);
  return full >= 0 ? full : MONTH_ABBREVIATIONS.indexOf(w);
}

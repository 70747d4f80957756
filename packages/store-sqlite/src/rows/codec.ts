/** Column codecs: timestamps are epoch milliseconds, flags 0/1, structured values JSON text. */

export const ms = (d: Date): number => d.getTime();
export const msOrNull = (d: Date | null): number | null => (d === null ? null : d.getTime());
export const date = (v: number): Date => new Date(v);
export const dateOrNull = (v: number | null): Date | null => (v === null ? null : new Date(v));
export const flag = (b: boolean): number => (b ? 1 : 0);
export const bool = (v: number): boolean => v !== 0;

/** JSON array text of ids, for `IN (SELECT value FROM json_each(?))`. */
export const idList = (ids: readonly string[]): string => JSON.stringify(ids);

/** SQLite's BINARY collation (UTF-8 bytes), which `ORDER BY message_id` uses. */
export function binaryCompare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

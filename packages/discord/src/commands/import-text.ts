import type { ImportHistoryResult, ImportProgress } from '../history/history-types.js';

const n = (value: number) => value.toLocaleString('en-US');
const plural = (value: number, one: string, many = `${one}s`) => `${n(value)} ${value === 1 ? one : many}`;

/** `Importing… 3 of 8 channels done, 1,234 messages read, 1,100 stored (now <#id>).` */
export function progressText(p: ImportProgress): string {
  const { totals } = p;
  return (
    `Importing the message history… ${n(totals.channelsDone)} of ${plural(totals.channels, 'channel')} done, ` +
    `${plural(totals.fetched, 'message')} read, ${n(totals.stored)} stored (now <#${p.channelId}>).`
  );
}

/** The last edit: totals, and what to do when the run stopped early. */
export function finalText(result: ImportHistoryResult, command: string): string {
  const imported = result.channels.filter((c) => c.status === 'imported').length;
  const left = result.channels.filter((c) => c.status === 'ignored' || c.status === 'no_access').length;
  const head =
    result.stopped === 'aborted'
      ? 'History import stopped'
      : result.stopped === 'stalled'
        ? 'History import paused: I am still working through earlier messages'
        : 'History import finished';
  const lines = [
    `${head}: ${plural(imported, 'channel')} read, ${plural(result.fetched, 'message')}, ` +
      `${n(result.stored)} stored, ${n(result.duplicates)} already known, ${n(result.skipped)} skipped ` +
      '(bots, members who opted out, ignored roles, empty messages).',
  ];
  if (left > 0) lines.push(`${plural(left, 'channel')} left out (ignored, or I cannot read them).`);
  if (result.stopped !== null)
    lines.push(`Run \`/${command} import\` again later to continue where it stopped.`);
  return lines.join('\n');
}

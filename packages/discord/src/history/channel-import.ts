import type { Memory } from '@permafrost/core';
import type { GuildTextBasedChannel } from 'discord.js';
import { type ChannelCursor, compareIds, readCursor, writeCursor } from './history-cursor.js';
import type { MemberCache } from './member-cache.js';
import type { MutableCounts, PageStore } from './page-store.js';
import type { RequestPacer } from './request-pacer.js';

const PAGE = 100; // Discord's largest page of messages

/** Everything one channel's run needs. */
export interface ChannelRun {
  readonly channel: GuildTextBasedChannel;
  readonly memory: Memory;
  readonly pacer: RequestPacer;
  readonly members: MemberCache;
  readonly pages: PageStore;
  readonly signal: AbortSignal | undefined;
  /** Messages with an id at or below this are older than `since` (null: no bound). */
  readonly sinceFloor: string | null;
  /** Messages this run may still read from the channel. */
  budget: number;
  readonly counts: MutableCounts;
  readonly onPage: () => void;
}

export interface ChannelOutcome {
  readonly complete: boolean;
  readonly stopped: 'aborted' | 'stalled' | null;
}

type End = 'floor' | 'start' | 'limit' | 'aborted' | 'stalled';

/**
 * Imports one channel, newest messages first, one page of 100 per request, and records after every
 * page how far it got (`ChannelCursor`). A channel imported before is first caught up from its
 * newest message down to what the last run had (resumable too, as the cursor's `gap`), then read
 * further back from where the last run stopped, until its first message, `since` or the budget.
 */
export async function importChannel(run: ChannelRun): Promise<ChannelOutcome> {
  const { guildId, id: channelId } = run.channel;
  let cursor = await readCursor(run.memory, guildId, channelId);
  const save = async (next: ChannelCursor) => {
    cursor = next;
    await writeCursor(run.memory, guildId, channelId, next);
  };
  if (cursor) {
    // Catch up on what was posted since: always down to the last run's newest message, so the
    // stored span never has a hole (`since` bounds how far back, not this).
    const top = cursor.top;
    const end = await pageDown(run, cursor.gap?.bottom, top, async (newest, oldest) => {
      const c = cursor as ChannelCursor;
      await save({ ...c, gap: { top: c.gap?.top ?? newest, bottom: oldest } });
    });
    if (end === 'floor' || end === 'start') {
      const { gap, ...rest } = cursor as ChannelCursor;
      if (gap) await save({ ...rest, top: gap.top });
    } else return { complete: cursor.complete, stopped: end === 'limit' ? null : end };
  }
  const known = cursor as ChannelCursor | null;
  if (known?.complete) return { complete: true, stopped: null };
  const floor = run.sinceFloor;
  if (known && floor !== null && compareIds(known.bottom, floor) <= 0)
    return { complete: false, stopped: null };
  const end = await pageDown(run, known?.bottom, floor, async (newest, oldest) => {
    const c = cursor as ChannelCursor | null;
    await save(c ? { ...c, bottom: oldest } : { top: newest, bottom: oldest, complete: false });
  });
  if (end === 'start' && cursor) await save({ ...(cursor as ChannelCursor), complete: true });
  const last = cursor as ChannelCursor | null;
  return {
    complete: end === 'start' || (last?.complete ?? false),
    stopped: end === 'aborted' || end === 'stalled' ? end : null,
  };
}

/**
 * Pages backwards from `before` (the newest message when undefined), storing the messages above
 * `floor`, and calls `saved` with the newest and oldest id of each stored page. Ends at the floor,
 * at the channel's first message (`start`), when the budget is spent, or when stopped.
 */
async function pageDown(
  run: ChannelRun,
  before: string | undefined,
  floor: string | null,
  saved: (newest: string, oldest: string) => Promise<void>,
): Promise<End> {
  let cursor = before;
  for (;;) {
    if (run.signal?.aborted) return 'aborted';
    if (run.budget <= 0) return 'limit';
    const limit = Math.min(PAGE, run.budget);
    if (!(await run.pacer.turn())) return 'aborted';
    const page = [
      ...(
        await run.channel.messages.fetch({ limit, cache: false, ...(cursor ? { before: cursor } : {}) })
      ).values(),
    ];
    const inRange = floor === null ? page : page.filter((m) => compareIds(m.id, floor) > 0);
    const newest = inRange[0];
    const oldest = inRange[inRange.length - 1];
    if (newest && oldest) {
      if (!(await run.members.ensureAuthors(run.channel.guild, inRange))) return 'aborted';
      const stored = await run.pages.store([...inRange].reverse(), run.counts);
      if (stored !== 'ok') return stored;
      run.budget -= inRange.length;
      await saved(newest.id, oldest.id);
      run.onPage();
    }
    if (inRange.length < page.length) return 'floor';
    const last = page[page.length - 1];
    if (page.length < limit || !last) return 'start';
    cursor = last.id;
  }
}

import type { EmulatorCore } from './core.js';
import type { UserMessageInput } from './messages.js';
import { SnowflakeGenerator } from './snowflake.js';
import type { ApiMessage } from './types.js';

/** One past message of a channel's history (see {@link seedHistory}). */
export interface HistoryMessageInput
  extends Omit<UserMessageInput, 'id' | 'guildId' | 'channelId' | 'attachments'> {
  /** When it was posted (ms since the epoch or a Date); defaults to the seed's spacing. */
  readonly at?: number | Date;
}

export interface SeedHistoryOptions {
  /** Time of the first message when messages have no `at` (default: `stepMs` apart, ending a minute ago). */
  readonly startAt?: number | Date;
  /** Spacing of messages without `at` (default 1,000 ms). */
  readonly stepMs?: number;
}

/** Ids of seeded history come from their own worker, so they never collide with live ids. */
const SEED_WORKER = 2;

/**
 * Stores past messages in a channel (oldest first) as if they had been posted before the bot
 * connected: no gateway event is sent, and `GET /channels/:id/messages` pages through them exactly
 * like the rest of the channel. Each id encodes its time, as on Discord; a message may reply to an
 * earlier one (`replyTo`). Returns the stored messages, oldest first.
 */
export function seedHistory(
  core: EmulatorCore,
  channelId: string,
  messages: readonly HistoryMessageInput[],
  options: SeedHistoryOptions = {},
): ApiMessage[] {
  const { world, factory, notifier } = core;
  world.channel(channelId);
  const step = options.stepMs ?? 1_000;
  const start =
    options.startAt === undefined
      ? Date.now() - 60_000 - messages.length * step
      : new Date(options.startAt).getTime();
  const ids = new SnowflakeGenerator(SEED_WORKER);
  const stored = messages.map((input, i) => {
    const { at, ...rest } = input;
    const time = at === undefined ? start + i * step : new Date(at).getTime();
    // Seeds of other channels may cover the same milliseconds: skip ids already taken.
    let id = ids.next(time);
    while (world.messages.has(id)) id = ids.next(time);
    return world.storeMessage(factory.fromUser({ ...rest, channelId, id }));
  });
  notifier.notify();
  return stored;
}

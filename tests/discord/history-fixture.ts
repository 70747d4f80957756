import type { ConversationMessage, Memory } from '@permafrost/core';
import {
  type ApiMessage,
  ChannelTypes,
  type DiscordEmulator,
  type GuildSeed,
  snowflake,
} from '../discord-emulator/index.js';
import { guildSeed, ids } from './harness.js';

/** Channels added to the test guild for the history import. */
export const hids = {
  random: snowflake(),
  modsLog: snowflake(),
  archived: snowflake(),
  secret: snowflake(),
} as const;

/** The test guild plus a third text channel, an ignored one, an archived thread and a private thread. */
export function historyGuildSeed(): GuildSeed {
  const base = guildSeed();
  return {
    ...base,
    channels: [
      ...(base.channels ?? []),
      { id: hids.random, name: 'random' },
      { id: hids.modsLog, name: 'mods-log' },
      {
        id: hids.archived,
        name: 'old-plans',
        type: ChannelTypes.PublicThread,
        parentId: ids.offTopic,
        archived: true,
      },
      { id: hids.secret, name: 'secret', type: ChannelTypes.PrivateThread, parentId: ids.general },
    ],
  };
}

/** The wiring filters of the import tests: `#mods-log` and the quiet role are ignored. */
export const historyFilters = { ignoredChannelIds: [hids.modsLog], ignoredRoleIds: [ids.quietRole] };

/** Messages seeded per channel: 5,200 in the channels the import reads, plus two it must not. */
export const SEEDED: readonly (readonly [string, number])[] = [
  [ids.general, 2_000],
  [ids.offTopic, 1_400],
  [hids.random, 1_200],
  [ids.thread, 500],
  [hids.archived, 100],
  [hids.modsLog, 60],
  [hids.secret, 20],
];

const AUTHORS = [ids.alice, ids.bob, ids.carol, ids.mo, ids.owen, ids.quinn, ids.otherBot, ids.alice];

/**
 * Seeds each channel's past (three days ago, ten seconds apart): every author in turn, among them
 * a bot, a member with the ignored role and Carol (whom the tests opt out); some messages mention
 * Bob and some reply to an earlier message of the same channel.
 */
export function seedServerHistory(emu: DiscordEmulator): void {
  const startAt = Date.now() - 3 * 86_400_000;
  for (const [channelId, count] of SEEDED) {
    const messages = Array.from({ length: count }, (_, i) => {
      const authorId = AUTHORS[i % AUTHORS.length] as string;
      const mention = i % 11 === 0 ? ` — ask <@${ids.bob}>` : '';
      return {
        authorId,
        content: `message ${i} in ${channelId.slice(-4)}: I like topic ${i % 37}${mention}`,
      };
    });
    const [first] = emu.seedHistory(channelId, messages.slice(0, 1), { startAt });
    emu.seedHistory(
      channelId,
      messages.slice(1).map((m, i) => (i % 7 === 3 && first ? { ...m, replyTo: first.id } : m)),
      { startAt: startAt + 10_000, stepMs: 10_000 },
    );
  }
}

/** Who the memory keeps: no bots, not the ignored role, not the opted-out member. */
export const kept = (m: ApiMessage) =>
  !m.author.bot && m.author.id !== ids.quinn && m.author.id !== ids.carol;

/** Every stored message of a channel, oldest first. */
export async function storedHistory(memory: Memory, channelId: string): Promise<ConversationMessage[]> {
  const out: ConversationMessage[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await memory.conversation.threadHistory({
      guildId: ids.guild,
      channelId,
      limit: 1000,
      ...(before ? { beforeMessageId: before } : {}),
    });
    out.unshift(...page);
    if (page.length < 1000 || !page[0]) return out;
    before = page[0].messageId;
  }
}

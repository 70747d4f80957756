import { z } from 'zod';
import type { ActiveMode } from '../ports/active-mode-store.js';
import type { Clock } from '../ports/clock.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { idField as id, parseInput } from '../validation/index.js';

const claimSchema = z
  .object({
    guildId: id,
    channelId: id,
    messageId: id,
    ttlSeconds: z.number().int().min(1).max(86_400).optional(),
  })
  .strict();
const releaseSchema = z.object({ guildId: id, channelId: id, messageId: id }).strict();
const modeKeySchema = z.object({ guildId: id, channelId: id }).strict();
const persistSchema = z.object({ guildId: id, channelId: id, mode: z.string().min(1).max(64) }).strict();
const listSchema = z
  .object({
    guildId: id.optional(),
    activeWithinMinutes: z.number().min(0).max(525_600).optional(),
    allInstances: z.boolean().optional(),
  })
  .strict()
  .optional();

/** `memory.claims`: exactly one bot instance answers a message; expired claims can be retaken. */
export function createClaimsApi(deps: { store: MemoryStore; clock: Clock; instanceId: string }) {
  return {
    async tryClaim(input: {
      guildId: string;
      channelId: string;
      messageId: string;
      ttlSeconds?: number;
    }): Promise<boolean> {
      parseInput(claimSchema, input, 'claims.tryClaim');
      return deps.store.claims.tryClaim({
        guildId: input.guildId,
        channelId: input.channelId,
        messageId: input.messageId,
        owner: deps.instanceId,
        now: deps.clock.now(),
        ttlMs: (input.ttlSeconds ?? 30) * 1000,
      });
    },
    async release(input: { guildId: string; channelId: string; messageId: string }): Promise<boolean> {
      parseInput(releaseSchema, input, 'claims.release');
      return deps.store.claims.releaseClaim({
        guildId: input.guildId,
        channelId: input.channelId,
        messageId: input.messageId,
        owner: deps.instanceId,
      });
    },
  };
}

/**
 * `memory.activeModes`: "active conversation" state owned by `conversation.modesOwner` (stable
 * across restarts and shared by every process of the bot, unlike the per-process lease owner).
 */
export function createActiveModesApi(deps: { store: MemoryStore; clock: Clock; owner: string }) {
  const key = (i: { guildId: string; channelId: string }) => ({
    instanceId: deps.owner,
    guildId: i.guildId,
    channelId: i.channelId,
  });
  return {
    async persist(input: { guildId: string; channelId: string; mode: string }): Promise<ActiveMode> {
      parseInput(persistSchema, input, 'activeModes.persist');
      const now = deps.clock.now();
      const mode: ActiveMode = { ...key(input), mode: input.mode, startedAt: now, lastActiveAt: now };
      await deps.store.modes.upsertMode(mode);
      return mode;
    },
    async touch(input: { guildId: string; channelId: string }): Promise<boolean> {
      parseInput(modeKeySchema, input, 'activeModes.touch');
      return deps.store.modes.touchMode(key(input), deps.clock.now());
    },
    async remove(input: { guildId: string; channelId: string }): Promise<boolean> {
      parseInput(modeKeySchema, input, 'activeModes.remove');
      return deps.store.modes.removeMode(key(input));
    },
    /**
     * Modes active in the last `activeWithinMinutes` (10), of one guild or all; this owner's only
     * unless `allInstances` (every owner sharing the database).
     */
    async list(
      input: { guildId?: string; activeWithinMinutes?: number; allInstances?: boolean } = {},
    ): Promise<ActiveMode[]> {
      parseInput(listSchema, input, 'activeModes.list');
      const since = new Date(deps.clock.now().getTime() - (input.activeWithinMinutes ?? 10) * 60_000);
      const modes = await deps.store.modes.listModes({
        activeSince: since,
        ...(input.allInstances ? {} : { instanceId: deps.owner }),
      });
      return input.guildId === undefined ? modes : modes.filter((m) => m.guildId === input.guildId);
    },
  };
}

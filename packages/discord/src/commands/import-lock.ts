import type { Memory } from '@permafrost/core';

/** Claim key of a guild's history import (`memory.claims`), shared by every bot process. */
const LOCK = { channelId: 'discord-history-import', messageId: 'lock' } as const;
const TTL_SECONDS = 120;
const RENEW_MS = 40_000;

/** A running import as other `/memory import` invocations see it. */
export interface RunningImport {
  /** Messages read so far. */
  fetched: number;
}

export interface ImportLease {
  readonly status: RunningImport;
  /** Ends the lease (idempotent): the guild may import again. */
  release(): Promise<void>;
}

/** Imports running in this process, per memory and guild. */
const running = new WeakMap<Memory, Map<string, RunningImport>>();

/** The import running in this process for the guild, if any. */
export function runningImport(memory: Memory, guildId: string): RunningImport | undefined {
  return running.get(memory)?.get(guildId);
}

/**
 * One history import per guild at a time: in this process (per memory), and across bot
 * processes through a claim (`memory.claims`, renewed every 40 s while the import runs, so a
 * crashed process frees the guild within two minutes). Null when an import already runs.
 */
export async function acquireImport(memory: Memory, guildId: string): Promise<ImportLease | null> {
  const mine = running.get(memory) ?? new Map<string, RunningImport>();
  running.set(memory, mine);
  if (mine.has(guildId)) return null;
  const status: RunningImport = { fetched: 0 };
  mine.set(guildId, status); // before the await: a second click in this process sees it at once
  const claim = () => memory.claims.tryClaim({ guildId, ...LOCK, ttlSeconds: TTL_SECONDS });
  if (!(await claim().catch(() => false))) {
    mine.delete(guildId);
    return null;
  }
  const renew = setInterval(() => void claim().catch(() => false), RENEW_MS);
  renew.unref?.();
  let released = false;
  return {
    status,
    async release() {
      if (released) return;
      released = true;
      clearInterval(renew);
      mine.delete(guildId);
      await memory.claims.release({ guildId, ...LOCK }).catch(() => false);
    },
  };
}

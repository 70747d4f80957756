import type { RawData } from 'ws';
import type { World } from './world.js';

/** The READY dispatch for a freshly identified session (guilds start out unavailable). */
export function readyPayload(
  world: World,
  sessionId: string,
  guildIds: string[],
  shard: readonly [number, number],
  resumeUrl: string,
): Record<string, unknown> {
  return {
    v: 10,
    user: { ...world.botUser, verified: true, mfa_enabled: false, flags: 0, email: null },
    guilds: guildIds.map((id) => ({ id, unavailable: true })),
    session_id: sessionId,
    session_type: 'normal',
    resume_gateway_url: resumeUrl,
    shard: [...shard],
    application: { id: world.applicationId, flags: 0 },
    private_channels: [],
    relationships: [],
    presences: [],
    guild_join_requests: [],
    geo_ordered_rtc_regions: [],
    user_settings: {},
    _trace: ['["permafrost-discord-emulator",{"micros":0}]'],
  };
}

/** Parses a client frame; undefined when it is not a JSON object with a numeric `op`. */
export function parseFrame(raw: RawData): { op: number; d: unknown } | undefined {
  try {
    const bytes = Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw as ArrayBuffer);
    const parsed = JSON.parse(bytes.toString('utf8')) as { op?: unknown; d?: unknown } | null;
    if (typeof parsed !== 'object' || parsed === null || typeof parsed.op !== 'number') return undefined;
    return { op: parsed.op, d: parsed.d };
  } catch {
    return undefined;
  }
}

import type { RequestMembersData } from './gateway-protocol.js';
import type { ApiMember } from './types.js';
import type { World } from './world.js';

const CHUNK_SIZE = 1_000;

export interface MembersChunk {
  guild_id: string;
  members: ApiMember[];
  chunk_index: number;
  chunk_count: number;
  not_found: string[];
  nonce?: string;
  presences?: unknown[];
}

/**
 * Answers a REQUEST_GUILD_MEMBERS (op 8) with GUILD_MEMBERS_CHUNK payloads: by `user_ids`, or by
 * username/global name/nickname prefix `query` ("" = everyone) up to `limit` (0 = no limit).
 */
export function answerMemberRequest(world: World, d: RequestMembersData): MembersChunk[] {
  const guildIds = Array.isArray(d.guild_id) ? d.guild_id.map(String) : [String(d.guild_id)];
  const chunks: MembersChunk[] = [];
  for (const guildId of guildIds) {
    const guild = world.guilds.get(guildId);
    if (!guild) continue;
    const members = world.sortedMembers(guildId);
    let selected = members;
    const notFound: string[] = [];
    if (d.user_ids !== undefined && d.user_ids !== null) {
      const ids = Array.isArray(d.user_ids) ? d.user_ids.map(String) : [String(d.user_ids)];
      selected = members.filter((m) => ids.includes(m.userId));
      for (const id of ids) if (!guild.members.has(id)) notFound.push(id);
    } else {
      const query = String(d.query ?? '').toLowerCase();
      const limit = typeof d.limit === 'number' && d.limit > 0 ? d.limit : Number.POSITIVE_INFINITY;
      selected = members
        .filter((m) => {
          if (query === '') return true;
          const user = world.user(m.userId);
          return [user.username, user.global_name, m.nick].some((name) =>
            name?.toLowerCase().startsWith(query),
          );
        })
        .slice(0, limit);
    }
    const count = Math.max(1, Math.ceil(selected.length / CHUNK_SIZE));
    for (let index = 0; index < count; index++) {
      chunks.push({
        guild_id: guildId,
        members: selected
          .slice(index * CHUNK_SIZE, (index + 1) * CHUNK_SIZE)
          .map((m) => world.memberPayload(guildId, m.userId)),
        chunk_index: index,
        chunk_count: count,
        not_found: index === 0 ? notFound : [],
        ...(typeof d.nonce === 'string' ? { nonce: d.nonce } : {}),
        ...(d.presences === true ? { presences: [] } : {}),
      });
    }
  }
  return chunks;
}

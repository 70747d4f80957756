import type { JsonObject } from './types.js';
import type { World } from './world.js';

const CHUNK_SIZE = 1_000;

/**
 * Answers a REQUEST_GUILD_MEMBERS (op 8) with GUILD_MEMBERS_CHUNK payloads: by `user_ids`, or by
 * username/nickname prefix `query` ("" = everyone) up to `limit` (0 = no limit).
 */
export function answerMemberRequest(world: World, d: JsonObject): JsonObject[] {
  const guildIds = Array.isArray(d['guild_id']) ? (d['guild_id'] as string[]) : [String(d['guild_id'])];
  const nonce = typeof d['nonce'] === 'string' ? d['nonce'] : undefined;
  const chunks: JsonObject[] = [];
  for (const guildId of guildIds) {
    const guild = world.guilds.get(guildId);
    if (!guild) continue;
    const members = world.sortedMembers(guildId);
    let selected = members;
    const notFound: string[] = [];
    const rawIds = d['user_ids'];
    if (rawIds !== undefined && rawIds !== null) {
      const ids = Array.isArray(rawIds) ? rawIds.map(String) : [String(rawIds)];
      selected = members.filter((m) => ids.includes(m.userId));
      for (const id of ids) if (!guild.members.has(id)) notFound.push(id);
    } else {
      const query = String(d['query'] ?? '').toLowerCase();
      const limit = typeof d['limit'] === 'number' && d['limit'] > 0 ? d['limit'] : Number.POSITIVE_INFINITY;
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
      const chunk: JsonObject = {
        guild_id: guildId,
        members: selected
          .slice(index * CHUNK_SIZE, (index + 1) * CHUNK_SIZE)
          .map((m) => world.memberPayload(guildId, m.userId)),
        chunk_index: index,
        chunk_count: count,
        not_found: index === 0 ? notFound : [],
      };
      if (nonce !== undefined) chunk['nonce'] = nonce;
      if (d['presences'] === true) chunk['presences'] = [];
      chunks.push(chunk);
    }
  }
  return chunks;
}

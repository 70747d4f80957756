import type { GuildSnapshot, ImportCounts } from '../model/admin.js';
import { type NodeRef, nodeKey } from '../model/graph.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { importCounts, planImport } from './import-plan.js';

const NODE_CHUNK = 200;

/**
 * Writes a guild snapshot into guild `guildId` (default: the snapshot's own): reads what the
 * target already holds, plans the import (import-plan.ts) and has the store apply it, all in one
 * transaction. Vectors are the caller's job (admin.importGuild re-embeds the facts).
 */
export async function importSnapshot(
  store: MemoryStore,
  snapshot: GuildSnapshot,
  guildId: string = snapshot.guildId,
): Promise<ImportCounts> {
  return store.transaction(async () => {
    const sources = new Map<string, NodeRef>();
    for (const r of snapshot.relations) {
      const node = { type: r.srcType, id: r.srcId };
      sources.set(nodeKey(node), node);
    }
    const nodes = [...sources.values()];
    const relations = [];
    for (let i = 0; i < nodes.length; i += NODE_CHUNK)
      relations.push(...(await store.graph.relationsTouching(guildId, nodes.slice(i, i + NODE_CHUNK))));
    const optedOut = new Set(await store.consent.optedOutUsers(guildId));
    await store.admin.applyImport(planImport(snapshot, guildId, { relations, optedOut }));
    return importCounts(snapshot);
  });
}

import { createMemory } from '@permafrost/core';
import { createMongoStore } from '@permafrost/store-mongo';
import type { Document } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { COLLECTION_NAMES, SHARD_KEYS } from '../src/mongo-schema.js';
import { mongoSelected, requireMongoUrl, scratchDatabase } from './backend-selection.js';

/**
 * Indexes that do not start with guildId: cross-guild maintenance sweeps (expired leases, stale
 * version tokens, old erasure records, the active-mode listing), listed in docs/stores.md as scatter-gather queries.
 */
const SWEEP_INDEXES = new Set([
  'batch_leases.until',
  'active_modes.last_active',
  'version_tokens.at',
  'erasures.at',
]);
/**
 * Cross-guild queries (docs/stores.md, "Queries that scan"), by the fields they filter on: the
 * sweeps above, the crash-recovery intake sweep, workers polling every guild's queue buckets for
 * due keys, and the guild listing (`distinct guildId`).
 */
const SWEEP_FILTERS: Readonly<Record<string, readonly string[]>> = {
  batch_leases: ['until'],
  version_tokens: ['at'],
  queue_intake: ['at'],
  erasures: ['at'],
  queue_buckets: [],
  active_modes: [],
};
const GUILD_LISTING = new Set(['distinct facts', 'distinct messages']);
/** Global keys of `meta` and `cursors` (no guild) are stored under the null guild: `~|…`. */
const NULL_GUILD = '~|';

const G = '1300000000000000001';
const prefix = `${G.length}:${G}|`;

function targetsGuild(filter: Document | undefined): boolean {
  if (!filter) return false;
  const g = filter['guildId'];
  if (g === G || (typeof g === 'object' && g !== null && (g as Document)['$eq'] === G)) return true;
  const id = filter['_id'];
  const ids: unknown[] =
    typeof id === 'string'
      ? [id]
      : typeof id === 'object' && id !== null && Array.isArray((id as Document)['$in'])
        ? ((id as Document)['$in'] as unknown[])
        : [];
  return (
    ids.length > 0 &&
    ids.every((x) => typeof x === 'string' && (x.startsWith(prefix) || x.startsWith(NULL_GUILD)))
  );
}

/** The filters a command applies (find, aggregate's first $match, update/delete statements, count, distinct). */
function filtersOf(name: string, cmd: Document): Document[] {
  switch (name) {
    case 'find':
      return [cmd['filter'] ?? {}];
    case 'aggregate':
      return [((cmd['pipeline'] as Document[])[0] ?? {})['$match'] ?? {}];
    case 'update':
      return (cmd['updates'] as Document[]).map((u) => u['q']);
    case 'delete':
      return (cmd['deletes'] as Document[]).map((d) => d['q']);
    case 'count':
      return [cmd['query'] ?? {}];
    case 'distinct':
      return [cmd['query'] ?? {}];
    default:
      return [];
  }
}

describe.runIf(mongoSelected)('shard-ready layout', () => {
  const mongo = scratchDatabase('pf_shard', { monitorCommands: true });
  const { db } = mongo;

  it('gives every collection a documented shard key, guild-prefixed where it holds guild data', () => {
    for (const role of Object.keys(COLLECTION_NAMES)) expect(SHARD_KEYS).toHaveProperty(role);
    for (const [role, key] of Object.entries(SHARD_KEYS)) {
      if (key === null) expect(role).toBe('storeMeta');
      else if (role !== 'tokens') expect(Object.keys(key)[0], role).toBe('guildId');
    }
  });

  it('creates only indexes that fit the shard keys: unique ones contain it, the rest lead with guildId or are sweeps', {
    timeout: 60_000,
  }, async () => {
    const store = createMongoStore({ client: mongo.client, dbName: db });
    await store.setup();
    let checked = 0;
    for (const [role, name] of Object.entries(COLLECTION_NAMES)) {
      const shardKey = SHARD_KEYS[role as keyof typeof SHARD_KEYS];
      const indexes = await mongo.client
        .db(db)
        .collection(name)
        .listIndexes()
        .toArray()
        .catch(() => [] as Document[]);
      for (const ix of indexes) {
        if (ix['name'] === '_id_') continue;
        checked++;
        const fields = Object.keys(ix['key'] as Document);
        if (ix['unique'] === true) {
          expect(shardKey, `${name}.${ix['name']} is unique on an unsharded collection`).not.toBeNull();
          expect(fields.slice(0, Object.keys(shardKey ?? {}).length)).toEqual(Object.keys(shardKey ?? {}));
        }
        if (!SWEEP_INDEXES.has(`${name}.${ix['name']}`))
          expect(fields[0], `${name}.${ix['name']}`).toBe('guildId');
      }
    }
    expect(checked).toBeGreaterThan(20);
    await store.close();
  });

  it('sends every hot-path command on guild data with the guild (or a guild-prefixed _id) in its filter', {
    timeout: 180_000,
  }, async () => {
    const store = createMongoStore({ client: mongo.client, dbName: db });
    await store.setup();
    const memory = createMemory(
      { storage: requireMongoUrl(), llm: null, embeddings: 'hashing', workers: { enabled: false } },
      { store },
    );
    const seen: { name: string; coll: string; filter: Document }[] = [];
    const inserted: { coll: string; doc: Document }[] = [];
    const listener = (e: { commandName: string; command: Document }) => {
      const coll = e.command[e.commandName];
      if (typeof coll !== 'string') return;
      if (e.commandName === 'insert')
        for (const doc of e.command['documents'] as Document[]) inserted.push({ coll, doc });
      for (const filter of filtersOf(e.commandName, e.command))
        seen.push({ name: e.commandName, coll, filter });
    };
    mongo.client.on('commandStarted', listener);
    try {
      const members = ['1300000000000000101', '1300000000000000102'];
      for (let i = 0; i < 8; i++) {
        const author = members[i % 2] as string;
        await memory.observe({
          messageId: String(1300000000000001000n + BigInt(i)),
          guildId: G,
          channelId: '1300000000000000201',
          authorId: author,
          authorUsername: `member${i % 2}`,
          authorDisplayName: `Member ${i % 2}`,
          content: `I really love hiking in the mountains and my cat is called Miso (${i})`,
          createdAt: new Date(Date.now() - (10 - i) * 60_000),
        });
      }
      await memory.flush({ guildId: G });
      await memory.promptContext({
        guildId: G,
        askerId: members[0] as string,
        text: 'what does Member 1 love?',
        mentionedIds: [members[1] as string],
      });
      await memory.recall({ guildId: G, text: 'hiking cat', subjectIds: members, includeServer: true });
    } finally {
      mongo.client.off('commandStarted', listener);
      await memory.close({ drain: false });
    }
    const sharded = new Set(
      Object.entries(COLLECTION_NAMES)
        .filter(([role]) => {
          const key = SHARD_KEYS[role as keyof typeof SHARD_KEYS];
          return key !== null && Object.keys(key)[0] === 'guildId';
        })
        .map(([, name]) => name),
    );
    const offGuild = seen.filter(({ name, coll, filter }) => {
      if (!sharded.has(coll) || targetsGuild(filter)) return false;
      if (GUILD_LISTING.has(`${name} ${coll}`)) return false;
      const sweep = SWEEP_FILTERS[coll];
      return !(sweep && Object.keys(filter).every((k) => sweep.includes(k)));
    });
    expect(seen.filter((s) => sharded.has(s.coll)).length).toBeGreaterThan(20);
    expect(offGuild.map((s) => `${s.name} ${s.coll} ${JSON.stringify(s.filter)}`)).toEqual([]);
    const strayInserts = inserted.filter(
      ({ coll, doc }) =>
        sharded.has(coll) &&
        doc['guildId'] !== G &&
        !(typeof doc['_id'] === 'string' && doc['_id'].startsWith(prefix)),
    );
    expect(strayInserts.map((s) => s.coll)).toEqual([]);
  });
});

import { createMemory } from '@permafrost/core';
import { G1 } from '@permafrost/store-conformance';
import { createMongoStore } from '@permafrost/store-mongo';
import type { CommandStartedEvent, Document } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { mongoSelected, scratchDatabase } from './backend-selection.js';

const at = new Date('2026-01-01T00:00:00Z');
const alias = (name: string, userId: string) => ({
  guildId: G1,
  alias: name,
  userId,
  source: 'display_name' as const,
  weight: 1,
  updatedAt: at,
});

/**
 * A member's aliases are read by the top-level `userIds` of the alias documents (FerretDB pushes
 * no dotted filter such as `users.userId` down: it would decode every alias of the guild).
 */
describe.runIf(mongoSelected)('mongo store alias documents', () => {
  const mongo = scratchDatabase('pf_alias_ids', { monitorCommands: true });

  it('reads a member’s aliases with a top-level equality and keeps userIds in step with users', async () => {
    const { client, db } = mongo;
    const store = createMongoStore({ client, dbName: `${db}_ids` });
    await store.setup();
    await store.aliases.upsert(alias('sam', 'u1'));
    await store.aliases.upsert(alias('sam', 'u2'));
    await store.aliases.upsert(alias('sammy', 'u1'));
    const raw = client.db(`${db}_ids`).collection<Document>('aliases');
    expect((await raw.findOne({ alias: 'sam' }))?.['userIds']).toEqual(['u1', 'u2']);

    const filters: Document[] = [];
    const started = (e: CommandStartedEvent) => {
      if (e.commandName === 'find' && e.command['find'] === 'aliases') filters.push(e.command['filter']);
    };
    client.on('commandStarted', started);
    try {
      const mine = await store.aliases.aliasesOf(G1, 'u1');
      expect(mine.map((a) => a.alias).sort()).toEqual(['sam', 'sammy']);
    } finally {
      client.off('commandStarted', started);
    }
    expect(filters).toHaveLength(1);
    expect(Object.keys(filters[0] ?? {}).sort()).toEqual(['guildId', 'userIds']);

    // A purge removes the member from the documents' users and from their userIds.
    const memory = createMemory(
      { storage: 'memory', llm: null, embeddings: 'hashing', workers: { enabled: false } },
      { store },
    );
    const report = await memory.admin.purgeUser({ guildId: G1, userId: 'u1', dryRun: false });
    expect(report).toMatchObject({ aliases: 2 });
    const sam = await raw.findOne({ alias: 'sam' });
    expect(sam?.['users']).toHaveLength(1);
    expect(sam?.['userIds']).toEqual(['u2']);
    expect(await raw.findOne({ alias: 'sammy' })).toBeNull();
    await memory.close({ drain: false });
  });

  it('gives alias documents of an earlier version their userIds at setup', async () => {
    const { client, db } = mongo;
    const name = `${db}_old`;
    const store = createMongoStore({ client, dbName: name });
    await store.setup();
    const raw = client.db(name).collection<Document>('aliases');
    // As an earlier version wrote them: members listed in `users` only (more than one chunk of
    // the migration's writes).
    await raw.insertMany(
      Array.from({ length: 40 }, (_, i) => ({
        _id: `old-doc-${i}`,
        ep: '',
        guildId: G1,
        alias: `robin${i}`,
        users: [{ userId: i === 0 ? 'u7' : `m${i}`, source: 'display_name', weight: 1, updatedAt: at }],
      })) as Document[],
    );
    await client
      .db(name)
      .collection<{ _id: string }>('store_meta')
      .deleteOne({ _id: 'migration.alias-user-ids' });
    expect(await store.aliases.aliasesOf(G1, 'u7')).toEqual([]);

    await store.setup();
    expect((await raw.findOne({ _id: 'old-doc-0' } as Document))?.['userIds']).toEqual(['u7']);
    expect(await raw.countDocuments({ userIds: { $exists: false } })).toBe(0);
    expect((await store.aliases.aliasesOf(G1, 'u7')).map((a) => a.alias)).toEqual(['robin0']);
    expect((await store.aliases.aliasesOf(G1, 'm39')).map((a) => a.alias)).toEqual(['robin39']);
    const indexes = (await raw.indexes()).map((i) => i.name);
    expect(indexes).toContain('guild_user_ids');
    expect(indexes).not.toContain('guild_user');
    await store.close();
  });
});

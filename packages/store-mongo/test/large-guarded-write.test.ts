import { createMemory } from '@permafrost/core';
import { G1, makeFact } from '@permafrost/store-conformance';
import { createMongoStore } from '@permafrost/store-mongo';
import type { CommandStartedEvent } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { mongoSelected, scratchDatabase } from './backend-selection.js';

/**
 * Guarded writes over many documents go in rounds of a few: one round over about a hundred made
 * FerretDB v1.24 stop answering every client until it was restarted (a purge of a member quoted in
 * 150 facts did).
 */
describe.runIf(mongoSelected)('mongo store guarded writes over many documents', () => {
  const mongo = scratchDatabase('pf_large_write', { monitorCommands: true });

  it('purges a member quoted in 120 facts in rounds of at most 16 writes, and the server keeps answering', async () => {
    const { client, db } = mongo;
    const store = createMongoStore({ client, dbName: db });
    await store.setup();
    const quote = (i: number, authorId: string) => ({
      messageId: `m${authorId}${i}`,
      channelId: 'c1',
      authorId,
      authorName: authorId,
      snippet: 'quoted words',
      url: `https://discord.com/channels/${G1}/c1/m${i}`,
      role: authorId === 'u9' ? ('primary' as const) : ('supporting' as const),
      createdAt: new Date('2026-01-01T00:00:00Z'),
    });
    const facts = Array.from({ length: 120 }, (_, i) =>
      makeFact({
        subjectId: 'u1',
        text: `fact ${i} that nine mentioned`,
        sources: [quote(i, 'u9'), quote(i, 'u1')],
      }),
    );
    await store.facts.insert(facts);
    const batches: number[] = [];
    const started = (e: CommandStartedEvent) => {
      if (e.commandName === 'update' && e.command['update'] === 'facts')
        batches.push((e.command['updates'] as unknown[]).length);
    };
    client.on('commandStarted', started);
    const memory = createMemory(
      { storage: 'memory', llm: null, embeddings: 'hashing', workers: { enabled: false } },
      { store },
    );
    try {
      const report = await memory.admin.purgeUser({ guildId: G1, userId: 'u9', dryRun: false });
      expect(report.sourcesStripped).toBe(120);
    } finally {
      client.off('commandStarted', started);
    }
    expect(batches.length).toBeGreaterThanOrEqual(Math.ceil(120 / 16));
    expect(Math.max(...batches)).toBeLessThanOrEqual(16);
    const after = await store.facts.get(
      G1,
      facts.map((f) => f.id),
    );
    expect(after).toHaveLength(120);
    expect(after.every((f) => f.sources.every((s) => s.authorId !== 'u9'))).toBe(true);
    expect(await client.db(db).command({ ping: 1 })).toMatchObject({ ok: 1 });
    await memory.close({ drain: false });
  }, 60_000);
});

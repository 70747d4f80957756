import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoredMessage } from '@permafrost/core';
import { indexTerms } from '@permafrost/core/store';
import { G1, makeFact, makeMessage } from '@permafrost/store-conformance';
import {
  createSqliteStore,
  LATEST_SCHEMA_VERSION,
  migrateDatabase,
  schemaVersion,
} from '@permafrost/store-sqlite';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

describe('schema migrations', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'permafrost-migrate-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('knows at least two migrations and records the latest version on a new file', async () => {
    expect(LATEST_SCHEMA_VERSION).toBeGreaterThanOrEqual(2);
    const path = join(dir, 'new.db');
    const store = createSqliteStore({ path });
    await store.setup();
    await store.setup();
    await store.close();
    const db = new Database(path);
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(db.prepare('SELECT version, name FROM schema_version ORDER BY version').all()).toEqual([
      { version: 1, name: 'core' },
      { version: 2, name: 'conversation' },
      { version: 3, name: 'lean-message-writes' },
      { version: 4, name: 'erasures' },
      { version: 5, name: 'guild-claims' },
      { version: 6, name: 'fact-channels' },
      { version: 7, name: 'reactions' },
      { version: 8, name: 'covering-link-reads' },
      { version: 9, name: 'keyword-vocabulary' },
      { version: 10, name: 'fact-epochs' },
      { version: 11, name: 'message-vector-changes' },
      { version: 12, name: 'change-log-reads' },
      { version: 13, name: 'keyword-rewrites' },
    ]);
    db.close();
  });

  it('upgrades a version-1 file to the latest version without losing rows', async () => {
    const path = join(dir, 'v1.db');
    const fact = makeFact({ text: 'alice restores vintage synthesizers' });
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    expect(migrateDatabase(db, { target: 1 })).toEqual({ from: 0, to: 1 });
    // Rows as version 1 wrote them: a fact, its keyword row and an alias.
    const info = db
      .prepare(
        `INSERT INTO facts (guild_id, id, subject_id, speaker_id, text, normalized_text, category, confidence,
           tier, scope, attribution, occurrences, strength, last_reinforced_at, created_at, updated_at,
           observed_at, valid_from, valid_until, supersedes_id, superseded_by_id, sources, related_user_ids,
           entity_slugs, expires_at, version)
           VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, 1, 1, ?, ?, ?, ?, ?, NULL, NULL, NULL, '[]', '[]', '[]', NULL, 1)`,
      )
      .run(
        fact.guildId,
        fact.id,
        fact.subjectId,
        fact.text,
        fact.normalizedText,
        fact.category,
        fact.confidence,
        fact.tier,
        fact.scope,
        JSON.stringify(fact.attribution),
        ...Array.from({ length: 5 }, () => fact.createdAt.getTime()),
      );
    db.prepare('INSERT INTO facts_fts (rowid, terms) VALUES (?, ?)').run(
      info.lastInsertRowid,
      indexTerms(fact.text).join(' '),
    );
    db.prepare(
      "INSERT INTO aliases (guild_id, alias, user_id, source, weight, updated_at) VALUES (?, 'ally', 'u1', 'manual', 0.8, 0)",
    ).run(G1);
    expect(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'messages'").get()).toBeUndefined();
    db.close();

    const store = createSqliteStore({ path });
    await store.setup();
    expect(await store.facts.get(G1, [fact.id])).toEqual([fact]);
    const hits = await store.facts.searchText({ guildId: G1 }, indexTerms('synthesizer'), 5);
    expect(hits.map((h) => h.fact.id)).toEqual([fact.id]);
    expect((await store.aliases.find(G1, 'ally', 5)).map((a) => a.userId)).toEqual(['u1']);
    const m: StoredMessage = makeMessage();
    expect(await store.queue.enqueue(m, 10)).toBe('accepted');
    await store.close();

    const check = new Database(path);
    expect(schemaVersion(check)).toBe(LATEST_SCHEMA_VERSION);
    check.close();
  });

  it('upgrades a version-5 file: facts get the channels of their sources (with thread parents), digests an unknown set', async () => {
    const path = join(dir, 'v5.db');
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    expect(migrateDatabase(db, { target: 5 })).toEqual({ from: 0, to: 5 });
    const source = (messageId: string, channelId: string) => ({
      messageId,
      channelId,
      authorId: 'u1',
      authorName: 'U1',
      snippet: 'x',
      url: '',
      role: 'primary',
      createdAt: null,
    });
    const insertFact = db.prepare(
      `INSERT INTO facts (guild_id, id, subject_id, speaker_id, text, normalized_text, category, confidence,
         tier, scope, attribution, occurrences, strength, last_reinforced_at, created_at, updated_at,
         observed_at, valid_from, valid_until, supersedes_id, superseded_by_id, sources, related_user_ids,
         entity_slugs, expires_at, version)
         VALUES (?, ?, 'u1', NULL, ?, ?, 'general', 0.9, 'mid', 'user', ?, 1, 1, 0, 0, 0, 0, 0, NULL, NULL, NULL, ?, '[]', '[]', NULL, 1)`,
    );
    const attribution = JSON.stringify({ type: 'self', speakerId: null, speakerName: null, actorId: null });
    insertFact.run(
      G1,
      'fct_a',
      'one',
      'one',
      attribution,
      JSON.stringify([source('m1', 'c1'), source('m2', 't1'), source('m3', 'c1')]),
    );
    insertFact.run(G1, 'fct_b', 'two', 'two', attribution, '[]');
    db.prepare(
      `INSERT INTO messages (guild_id, message_id, channel_id, author_id, author_username, author_display_name,
         author_is_bot, content, content_truncated, raw_stored, created_at, mention_ids, thread_parent_id, edited,
         kind, subject_key, status, attempts)
         VALUES (?, 'm2', 't1', 'u1', 'u1', 'U1', 0, 'in the thread', 0, 1, 1, '[]', 'c1', 0, 'chat', 'u1', 'processed', 0)`,
    ).run(G1);
    db.prepare(
      'INSERT INTO digests (guild_id, subject_id, text, generated_at, source_fact_count) VALUES (?, ?, ?, 0, 2)',
    ).run(G1, 'u1', 'profile');
    db.close();

    const store = createSqliteStore({ path });
    await store.setup();
    const [a, b] = await store.facts.get(G1, ['fct_a', 'fct_b']);
    expect(a?.channels).toEqual([
      { channelId: 'c1', parentId: null },
      { channelId: 't1', parentId: 'c1' },
    ]);
    expect(b?.channels).toEqual([]);
    expect((await store.digests.getDigest(G1, 'u1'))?.channels).toBeNull();
    await store.close();
  });

  it('upgrades a version-2 file: indexed and still-waiting messages stay searchable, new ones too', async () => {
    const path = join(dir, 'v2.db');
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    expect(migrateDatabase(db, { target: 2 })).toEqual({ from: 0, to: 2 });
    // Version 2 queued every new searchable row in messages_fts_pending until a bulk flush.
    const insert = db.prepare(
      `INSERT INTO messages (guild_id, message_id, channel_id, author_id, author_username, author_display_name,
         author_is_bot, content, content_truncated, raw_stored, created_at, mention_ids, edited, kind,
         subject_key, status, attempts)
         VALUES (?, ?, 'c1', 'u1', 'u1', 'U1', 0, ?, 0, 1, ?, '[]', 0, 'chat', 'u1', 'processed', 0)`,
    );
    const indexed = Number(insert.run(G1, 'm-indexed', 'the oboe lessons went well', 1).lastInsertRowid);
    db.prepare('INSERT INTO messages_fts (rowid, terms) VALUES (?, ?)').run(
      indexed,
      indexTerms('the oboe lessons went well').join(' '),
    );
    const waiting = Number(insert.run(G1, 'm-waiting', 'bassoon reeds are pricey', 2).lastInsertRowid);
    db.prepare('INSERT INTO messages_fts_pending (row_id) VALUES (?)').run(waiting);
    db.close();

    const store = createSqliteStore({ path });
    await store.queue.enqueue(makeMessage({ messageId: 'm-new', content: 'an oboe and a bassoon duet' }), 10);
    const find = async (q: string) =>
      (await store.conversation.searchText(G1, indexTerms(q), 10)).map((h) => h.message.messageId).sort();
    expect(await find('oboe')).toEqual(['m-indexed', 'm-new']);
    expect(await find('bassoon')).toEqual(['m-new', 'm-waiting']);
    await store.close();
    const check = new Database(path);
    expect(
      check.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'messages_status'").get(),
    ).toEqual({
      n: 0,
    });
    check.close();
  });

  it('upgrades a version-7 file: node links and fact validity can be read from indexes alone', async () => {
    const path = join(dir, 'v7.db');
    const fact = makeFact({ text: 'alice restores vintage synthesizers' });
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    expect(migrateDatabase(db, { target: 7 })).toEqual({ from: 0, to: 7 });
    db.prepare(
      `INSERT INTO facts (guild_id, id, subject_id, text, normalized_text, category, confidence, tier, scope,
         attribution, occurrences, strength, last_reinforced_at, created_at, updated_at, observed_at,
         valid_from, sources, related_user_ids, entity_slugs, version)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 1, 0, 0, 0, 0, 0, '[]', '[]', '[]', 1)`,
    ).run(
      fact.guildId,
      fact.id,
      fact.subjectId,
      fact.text,
      fact.normalizedText,
      fact.category,
      fact.confidence,
      fact.tier,
      fact.scope,
      JSON.stringify(fact.attribution),
    );
    db.prepare(
      "INSERT INTO links (guild_id, fact_id, node_type, node_id, kind, created_at) VALUES (?, ?, 'user', 'u1', 'subject', 7)",
    ).run(G1, fact.id);
    db.close();

    const store = createSqliteStore({ path });
    const node = { type: 'user', id: 'u1' } as const;
    const read = () => store.graph.linksForNodes(G1, [node], { validity: 'active', limitPerNode: 10 });
    expect((await read()).map((l) => [l.factId, l.kind, l.createdAt.getTime()])).toEqual([
      [fact.id, 'subject', 7],
    ]);
    await store.facts.update(G1, fact.id, { supersededById: 'newer' }, { at: new Date(8) });
    expect(await read()).toEqual([]);
    await store.close();

    const check = new Database(path);
    const columns = (index: string) =>
      (check.prepare(`PRAGMA index_info(${index})`).all() as { name: string }[]).map((c) => c.name);
    expect(columns('links_node')).toEqual([
      'guild_id',
      'node_type',
      'node_id',
      'fact_id',
      'kind',
      'created_at',
    ]);
    expect(columns('facts_validity')).toEqual(['guild_id', 'id', 'superseded_by_id', 'valid_until']);
    check.close();
  });

  it('refuses a file written by a newer schema and leaves it untouched', async () => {
    const path = join(dir, 'future.db');
    const db = new Database(path);
    migrateDatabase(db);
    db.prepare('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, 0)').run(
      LATEST_SCHEMA_VERSION + 1,
      'from-the-future',
    );
    db.close();

    const store = createSqliteStore({ path });
    await expect(store.setup()).rejects.toMatchObject({ code: 'SCHEMA_VERSION_UNSUPPORTED' });
    await expect(store.facts.get(G1, ['x'])).rejects.toMatchObject({ code: 'SCHEMA_VERSION_UNSUPPORTED' });
    await store.close();
    const after = new Database(path);
    expect(schemaVersion(after)).toBe(LATEST_SCHEMA_VERSION + 1);
    after.close();
  });
});

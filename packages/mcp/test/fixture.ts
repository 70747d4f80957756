import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory, type Memory } from '@permafrost/core';
import '@permafrost/store-sqlite';

export const G1 = '900000000000000001';
export const G2 = '900000000000000002';
export const CHANNEL = '900000000000000010';
export const ALICE = '910000000000000001';
export const BOB = '910000000000000002';
export const CAROL = '910000000000000003';
export const AUDIENCE = { channelId: CHANNEL } as const;
/** A second channel: what is learned there is visible only to audiences in it (core's default policy). */
export const MODS = '900000000000000011';

const root = join(import.meta.dirname, '..', '..', '..');
/** The built CLI (tests build packages/cli, which builds this package as a reference). */
export const CLI_BIN = join(root, 'packages', 'cli', 'dist', 'bin.js');

export function openSqlite(db: string): Memory {
  return createMemory({ storage: `sqlite://${db}`, llm: 'heuristic', workers: { enabled: false } });
}

const SCRIPT: readonly (readonly [who: string, name: string, text: string])[] = [
  [ALICE, 'Alice', 'hey everyone! i live in omaha and i work as a nurse'],
  [BOB, 'Bob', 'i love rust and i play chess every weekend'],
  [CAROL, 'Carol', 'i have a dog named biscuit'],
  [ALICE, 'Alice', 'i love hiking and my favorite food is ramen'],
  [CAROL, 'Carol', 'game night is every friday at 8pm in the voice channel'],
  [BOB, 'Bob', 'i hate pineapple on pizza, fight me'],
];

/**
 * A SQLite memory in a temp folder seeded through the public API: messages observed and
 * extracted by the offline heuristic extractor, manual facts with relations, and a second guild
 * the servers under test do not serve.
 */
export async function seedDatabase(): Promise<{ dir: string; db: string; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'permafrost-mcp-'));
  const db = join(dir, 'memory.db');
  const memory = openSqlite(db);
  const start = Date.now() - 3 * 86_400_000;
  let n = 0;
  for (const guildId of [G1, G2])
    for (const [authorId, name, content] of SCRIPT) {
      n++;
      await memory.observe({
        messageId: String(920000000000000000n + BigInt(n)),
        guildId,
        channelId: CHANNEL,
        authorId,
        authorUsername: name.toLowerCase(),
        authorDisplayName: name,
        content,
        createdAt: new Date(start + n * 60_000),
      });
    }
  await memory.flush();
  await memory.facts.remember({
    guildId: G1,
    subjectId: ALICE,
    text: 'Alice is friends with Bob',
    relations: [{ verb: 'friend_of', toUserId: BOB }],
  });
  await memory.facts.remember({
    guildId: G1,
    subjectId: BOB,
    text: 'Bob maintains a Rust compiler fork',
    entities: [{ name: 'Rust', kind: 'concept' }],
    relations: [{ verb: 'likes', toEntity: 'Rust' }],
  });
  await memory.facts.remember({ guildId: G2, subjectId: ALICE, text: 'Alice collects stamps in guild two' });
  await memory.facts.remember({
    guildId: G1,
    subjectId: ALICE,
    text: 'Alice is on the moderation rota this winter',
    channel: { channelId: MODS, parentId: null },
  });
  await memory.close();
  return { dir, db, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

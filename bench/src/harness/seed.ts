/**
 * Seeds a guild fast, through the store: facts, their vectors (hashing embedder, computed in
 * batches), subject links and members' display-name aliases, in transactions of 1,000 facts.
 * This is what extraction would have committed; the store path is used because going through
 * `facts.remember` one fact at a time would make 100k-fact runs take minutes of setup.
 */
import { createHashingEmbedder, type Fact, type Link, type MemoryStore } from '@permafrost/core';
import { normalizeAlias, resolveStoreFactory } from '@permafrost/core/internal';
import { makeFact } from '@permafrost/core/testing';
import { createSqliteStore } from '@permafrost/store-sqlite';
import { type Member, makeFactTexts } from '../community.js';
import { prng } from '../stats.js';

export const GUILD = '1098765432109876543';
export const DIMENSIONS = 256;
/**
 * The channels seeded facts were learned in (round robin): an audience in one of them sees a
 * quarter of the guild's facts under core's default policy.
 */
export const SEED_CHANNELS = [
  '1200000000000000101',
  '1200000000000000102',
  '1200000000000000103',
  '1200000000000000104',
] as const;
const MONGO_PKG = '@permafrost/store-mongo';

export type Backend = 'sqlite' | 'mongo';

/** Opens a store for a backend: a SQLite file, or a database on MONGO_URL. */
export async function openStore(backend: Backend, location: string): Promise<MemoryStore> {
  if (backend === 'sqlite') return createSqliteStore({ path: location });
  await import(MONGO_PKG).catch(() => undefined);
  const factory = await resolveStoreFactory('mongodb');
  return factory(location, {});
}

/** Storage URL for createMemory. */
export function storageUrl(backend: Backend, location: string): string {
  return backend === 'sqlite' ? `sqlite://${location}` : location;
}

/** A MONGO_URL with its database name replaced (one database per run). */
export function mongoDatabaseUrl(base: string, db: string): string {
  const u = new URL(base);
  u.pathname = `/${db}`;
  return u.toString();
}

/**
 * Which server answers on a MONGO_URL: FerretDB says so in buildInfo (it reports a MongoDB
 * version string too, so the version cannot tell).
 */
export async function mongoServerKind(url: string): Promise<'ferretdb' | 'mongodb'> {
  // Loaded here, not at the top: a SQLite worker importing this module must not carry the Mongo
  // driver (and its buffer pool) in the memory it measures.
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5_000 });
  try {
    const info = (await client.db('admin').command({ buildInfo: 1 })) as {
      ferretdbVersion?: unknown;
      ferretdb?: unknown;
    };
    return typeof info.ferretdbVersion === 'string' || info.ferretdb !== undefined ? 'ferretdb' : 'mongodb';
  } finally {
    await client.close();
  }
}

/** Whether a real Mongo store is installed (store-mongo registers `mongodb`). */
export async function mongoAvailable(): Promise<string | null> {
  if (!process.env['MONGO_URL']) return 'MONGO_URL is not set';
  try {
    await import(MONGO_PKG);
    await resolveStoreFactory('mongodb');
    return null;
  } catch (error) {
    return `no Mongo store on this commit (${error instanceof Error ? error.message : String(error)})`;
  }
}

export async function seedGuild(
  store: MemoryStore,
  size: number,
  members: readonly Member[],
  batch = 1000,
): Promise<{ seconds: number; factsPerSecond: number }> {
  await store.setup();
  const embedder = createHashingEmbedder({ dimensions: DIMENSIONS });
  const rand = prng(11);
  const texts = makeFactTexts(size, members);
  const base = Date.UTC(2026, 0, 1);
  const t0 = performance.now();
  const at = new Date(base);
  for (const m of members) {
    for (const [alias, source, weight] of [
      [m.name, 'display_name', 0.7],
      [m.username, 'discord_username', 0.9],
    ] as const) {
      await store.aliases.upsert({
        guildId: GUILD,
        alias: normalizeAlias(alias),
        userId: m.id,
        source,
        weight,
        updatedAt: at,
      });
    }
  }
  for (let i = 0; i < size; i += batch) {
    const chunk = texts.slice(i, i + batch);
    const vectors = await embedder.embed(chunk.map((t) => t.text));
    const facts: Fact[] = chunk.map((t, j) => {
      const n = i + j;
      const created = new Date(base + n * 60_000);
      const server = t.subjectId === null;
      return makeFact({
        id: `fct_${String(n).padStart(10, '0')}`,
        guildId: GUILD,
        subjectId: t.subjectId,
        text: t.text,
        category: server ? 'culture' : 'general',
        confidence: 0.8 + rand() * 0.2,
        attribution: { type: 'self', speakerId: t.subjectId, speakerName: t.subjectName, actorId: null },
        occurrences: 1 + Math.floor(rand() * 3),
        strength: 1 + rand() * 4,
        createdAt: created,
        channels: [{ channelId: SEED_CHANNELS[n % SEED_CHANNELS.length] as string, parentId: null }],
      });
    });
    const links: Link[] = facts
      .filter((f) => f.subjectId !== null)
      .map((f) => ({
        guildId: GUILD,
        factId: f.id,
        nodeType: 'user',
        nodeId: f.subjectId as string,
        kind: 'subject_of',
        createdAt: f.createdAt,
      }));
    await store.transaction(async () => {
      await store.facts.insert(facts);
      await store.vectors.upsert(
        facts.map((f, j) => ({
          kind: 'fact' as const,
          id: f.id,
          guildId: GUILD,
          subjectId: f.subjectId,
          active: true,
          vector: vectors[j] as Float32Array,
        })),
      );
      await store.graph.addLinks(links);
    });
  }
  await store.meta.setMeta('embedder.id', embedder.id);
  const seconds = (performance.now() - t0) / 1000;
  return { seconds: Math.round(seconds * 100) / 100, factsPerSecond: Math.round(size / seconds) };
}

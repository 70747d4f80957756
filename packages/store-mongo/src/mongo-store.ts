import { ErrorCode, MemoryError, type MemoryStore, type StoreCapabilities } from '@permafrost/core';
import { conversationRoles, governanceRoles } from '@permafrost/core/store';
import { MongoClient } from 'mongodb';
import { insertTolerant } from './insert-tolerant.js';
import { MongoAliasStore } from './mongo-alias-store.js';
import { MongoContext } from './mongo-context.js';
import { MongoConversationStore } from './mongo-conversation-store.js';
import { migrateAliasUserIds, migrateFactScopes } from './mongo-doc-migrations.js';
import { MongoFactStore } from './mongo-fact-store.js';
import { MongoGovernanceStore } from './mongo-governance-store.js';
import { MongoGraphStore } from './mongo-graph-store.js';
import { MongoIngestQueue } from './mongo-ingest-queue.js';
import { migrateNulScopes } from './mongo-nul-migration.js';
import { checkDbName, checkQueryPlan, dbNameFromUrl, type MongoStoreOptions } from './mongo-options.js';
import { probeServer } from './mongo-probe.js';
import { MongoReactionStore } from './mongo-reaction-store.js';
import { reindexTermsIfNeeded } from './mongo-reindex.js';
import { createIndexes, dropRetiredIndexes, SCHEMA_VERSION } from './mongo-schema.js';
import { MongoVectorIndex } from './mongo-vector-index.js';
import type { ServerProfile } from './server-profile.js';

export interface MongoMemoryStore extends MemoryStore {
  readonly name: 'mongo';
  readonly dbName: string;
  /** What setup (or openMongoStore) learned about the server. */
  readonly profile: ServerProfile;
}

const DEFAULT_TOKEN_TTL_MS = 30_000;

function capabilitiesOf(profile: ServerProfile, nativeVectors: boolean): StoreCapabilities {
  return Object.freeze({
    transactions: profile.transactions ? 'atomic' : 'ordered',
    nativeVectorSearch: nativeVectors && profile.vectorSearch,
    multiProcess: true,
    // Deleted documents are gone from every read, but reclaiming their bytes on disk is the
    // storage engine's business (WiredTiger compaction, FerretDB's SQLite file): not guaranteed.
    physicalPurge: false,
    durable: true,
  });
}

/**
 * A MemoryStore on MongoDB ≥ 6 (standalone, replica set, sharded, Atlas) or FerretDB v1.
 * `capabilities` are conservative until `setup()` (or `openMongoStore`) has probed the server.
 */
export function createMongoStore(options: MongoStoreOptions): MongoMemoryStore {
  if (!options.client && !options.url)
    throw new MemoryError(ErrorCode.CONFIG_INVALID, 'the MongoDB store needs a url or a client');
  const dbName =
    options.dbName !== undefined ? checkDbName(options.dbName) : dbNameFromUrl(options.url ?? 'mongodb://');
  const owned = !options.client;
  const client =
    options.client ??
    new MongoClient(options.url as string, { serverSelectionTimeoutMS: 5_000, ...options.clientOptions });
  const ctx = new MongoContext(client, client.db(dbName), {
    ...(options.logger ? { logger: options.logger } : {}),
    guardTtlMs: options.versionTokenTtlMs ?? DEFAULT_TOKEN_TTL_MS,
  });
  const vectorMode = options.vectorSearch ?? 'auto';
  const plan = checkQueryPlan(options.queryPlan);
  let capabilities = capabilitiesOf(ctx.profile, vectorMode === 'auto');
  let probed: Promise<void> | null = null;
  const probe = () => {
    probed ??= probeServer(client, ctx.c).then(
      (probedProfile) => {
        const profile = plan === 'auto' ? probedProfile : { ...probedProfile, queryPlan: plan };
        ctx.profile = profile;
        capabilities = capabilitiesOf(profile, vectorMode === 'auto');
        options.logger?.({
          level: 'info',
          event: 'store.mongo.profile',
          data: { ...profile, transactions: capabilities.transactions },
        });
      },
      (error: unknown) => {
        probed = null;
        throw error;
      },
    );
    return probed;
  };

  const store: MongoMemoryStore & { probe(): Promise<void> } = {
    name: 'mongo',
    dbName,
    get profile() {
      return ctx.profile;
    },
    get capabilities() {
      return capabilities;
    },
    facts: new MongoFactStore(ctx),
    aliases: new MongoAliasStore(ctx),
    graph: new MongoGraphStore(ctx),
    ...governanceRoles(new MongoGovernanceStore(ctx)),
    queue: new MongoIngestQueue(ctx),
    vectors: new MongoVectorIndex(ctx, vectorMode),
    ...conversationRoles(new MongoConversationStore(ctx)),
    reactions: new MongoReactionStore(ctx),
    probe,
    async setup() {
      await dropRetiredIndexes(ctx.c);
      await createIndexes(ctx.c);
      await insertTolerant(ctx.c.storeMeta as never, [{ _id: 'schema.version', value: SCHEMA_VERSION }]);
      const schema = await ctx.c.storeMeta.findOne({ _id: 'schema.version' });
      if (schema && Number(schema.value) > SCHEMA_VERSION)
        throw new MemoryError(
          ErrorCode.SCHEMA_VERSION_UNSUPPORTED,
          'the database was written by a newer Permafrost',
        );
      await probe();
      await ctx.guard.sweep(10 * (options.versionTokenTtlMs ?? DEFAULT_TOKEN_TTL_MS));
      await reindexTermsIfNeeded(ctx);
      await migrateNulScopes(ctx);
      await migrateFactScopes(ctx);
      await migrateAliasUserIds(ctx);
    },
    async ping() {
      await ctx.db.command({ ping: 1 });
    },
    transaction: (fn) => ctx.transaction(fn),
    async close() {
      await ctx.guard.settled();
      if (owned) await client.close();
    },
  };
  return store;
}

/** Creates the store and probes the server, so `capabilities` are final (used by the URL factory). */
export async function openMongoStore(options: MongoStoreOptions): Promise<MongoMemoryStore> {
  const store = createMongoStore(options) as MongoMemoryStore & { probe(): Promise<void> };
  try {
    await store.probe();
  } catch (error) {
    await store.close().catch(() => undefined);
    throw new MemoryError(ErrorCode.STORE_UNAVAILABLE, 'the MongoDB server could not be reached', {
      cause: error,
    });
  }
  return store;
}

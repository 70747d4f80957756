import { registerStoreFactory } from '@permafrost/core/store';
import { openMongoStore } from './mongo-store.js';

export { dbNameFromUrl, type MongoStoreOptions } from './mongo-options.js';
export { createMongoStore, type MongoMemoryStore, openMongoStore } from './mongo-store.js';
export type { VectorSearchMode } from './mongo-vector-index.js';
export type { QueryPlan, ServerProfile } from './server-profile.js';

/** Importing the package registers it for `mongodb://` and `mongodb+srv://` storage URLs. */
for (const scheme of ['mongodb', 'mongodb+srv']) {
  registerStoreFactory(scheme, (url, options) =>
    openMongoStore({ url, ...(options.logger ? { logger: options.logger } : {}) }),
  );
}

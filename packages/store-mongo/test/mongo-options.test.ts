import { getStoreFactory } from '@permafrost/core/internal';
import { createMongoStore, dbNameFromUrl } from '@permafrost/store-mongo';
import { describe, expect, it } from 'vitest';

// No server needed: URL parsing, configuration errors and factory registration.
describe('mongo store options', () => {
  it('takes the database from the last path segment of mongodb:// and mongodb+srv:// URLs', () => {
    expect(dbNameFromUrl('mongodb://127.0.0.1:27017/memories')).toBe('memories');
    expect(dbNameFromUrl('mongodb://u:p%40ss@h1:1,h2:2/bots?replicaSet=rs0&w=majority')).toBe('bots');
    expect(
      dbNameFromUrl('mongodb+srv://user:pw@cluster0.abcde.mongodb.net/permafrost_prod?retryWrites=true'),
    ).toBe('permafrost_prod');
    expect(dbNameFromUrl('mongodb://localhost')).toBe('permafrost');
    expect(dbNameFromUrl('mongodb://localhost/')).toBe('permafrost');
    expect(dbNameFromUrl('mongodb://localhost/?directConnection=true')).toBe('permafrost');
  });

  it('rejects other schemes and invalid database names with CONFIG_INVALID', () => {
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return (e as { code?: string }).code;
      }
      return 'no error';
    };
    expect(code(() => dbNameFromUrl('postgres://h/db'))).toBe('CONFIG_INVALID');
    expect(code(() => dbNameFromUrl('mongodb://h/a.b'))).toBe('CONFIG_INVALID');
    expect(code(() => dbNameFromUrl('mongodb://h/a%2Fb'))).toBe('CONFIG_INVALID');
    expect(code(() => dbNameFromUrl('mongodb://h/%E0%A4%A'))).toBe('CONFIG_INVALID');
    expect(code(() => createMongoStore({}))).toBe('CONFIG_INVALID');
    expect(code(() => createMongoStore({ url: 'mongodb://h/x', dbName: '$bad' }))).toBe('CONFIG_INVALID');
    expect(code(() => createMongoStore({ url: 'mongodb://h/x', queryPlan: 'postgres' as 'auto' }))).toBe(
      'CONFIG_INVALID',
    );
  });

  it('registers a factory for mongodb:// and mongodb+srv:// on import, and names itself mongo', () => {
    expect(typeof getStoreFactory('mongodb')).toBe('function');
    expect(typeof getStoreFactory('mongodb+srv')).toBe('function');
    const store = createMongoStore({ url: 'mongodb://127.0.0.1:9/unused' });
    expect(store.name).toBe('mongo');
    expect(store.dbName).toBe('unused');
    // Conservative until setup has probed the server.
    expect(store.capabilities).toEqual({
      transactions: 'ordered',
      nativeVectorSearch: false,
      multiProcess: true,
      physicalPurge: false,
      durable: true,
    });
  });
});

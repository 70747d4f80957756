import { createMongoStore } from '@permafrost/store-mongo';
import { describe, expect, it } from 'vitest';
import { COLLECTION_NAMES, INDEXES, RETIRED_INDEXES, STRENGTH_ORDER } from '../src/mongo-schema.js';
import { mongoSelected, scratchDatabase } from './backend-selection.js';

describe('mongo store: the index behind topStrength', () => {
  it("holds the scope's equality fields, then topStrength's whole sort order", () => {
    const index = INDEXES.facts?.find((i) => i.name === 'guild_subject_strength');
    expect(Object.entries(index?.key ?? {})).toEqual([
      ['guildId', 1],
      ['subjectId', 1],
      ['active', 1],
      ...Object.entries(STRENGTH_ORDER),
    ]);
  });

  it('never creates a retired index again', () => {
    for (const [role, names] of Object.entries(RETIRED_INDEXES)) {
      const created = (INDEXES[role as keyof typeof INDEXES] ?? []).map((i) => i.name);
      for (const name of names ?? []) expect(created).not.toContain(name);
    }
  });
});

describe.runIf(mongoSelected)('mongo store: setup replaces retired indexes', () => {
  const mongo = scratchDatabase('pf_strength_index');

  it('drops the index an earlier version created and creates its replacement, twice in a row', async () => {
    const { client, db } = mongo;
    const facts = client.db(db).collection(COLLECTION_NAMES.facts);
    // What a database written by the previous version holds.
    await facts.createIndex(
      { guildId: 1, subjectId: 1, active: 1, strength: -1 },
      { name: 'guild_subject_active' },
    );
    for (let run = 0; run < 2; run++) {
      const store = createMongoStore({ client, dbName: db });
      try {
        await store.setup();
      } finally {
        await store.close();
      }
      const names = (await facts.indexes()).map((i) => i.name);
      expect(names).toContain('guild_subject_strength');
      expect(names).not.toContain('guild_subject_active');
    }
  });
});

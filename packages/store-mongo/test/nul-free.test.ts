import { G1, makeFact, makeMessage, unitVector, vectorItem } from '@permafrost/store-conformance';
import { createMongoStore } from '@permafrost/store-mongo';
import { describe, expect, it } from 'vitest';
import { decodeString, decodeValue, encodeString, encodeValue } from '../src/nul-free.js';
import { mongoSelected, scratchDatabase } from './backend-selection.js';

/** Every string over a small alphabet that includes NUL, the escape and its code digits. */
function* strings(maxLen: number): Generator<string> {
  const alphabet = ['\u0000', '\uffff', '0', '1', 'a'];
  let level = [''];
  yield '';
  for (let n = 1; n <= maxLen; n++) {
    level = level.flatMap((s) => alphabet.map((c) => s + c));
    yield* level;
  }
}

describe('NUL-free encoding', () => {
  it('is reversible, never emits NUL and leaves ordinary text as it is', () => {
    for (const s of strings(5)) {
      const e = encodeString(s);
      expect(e.includes('\u0000')).toBe(false);
      expect(decodeString(e)).toBe(s);
    }
    expect(encodeString('plain text, ünïcødé 🧊')).toBe('plain text, ünïcødé 🧊');
  });

  it('is injective and keeps prefixes (equality, $in and prefix ranges stay exact)', () => {
    const all = [...strings(4)];
    const seen = new Map<string, string>();
    for (const s of all) {
      const e = encodeString(s);
      expect(seen.get(e) ?? s).toBe(s);
      seen.set(e, s);
    }
    for (const a of all.slice(0, 80))
      for (const b of all.slice(0, 80))
        expect(encodeString(b).startsWith(encodeString(a))).toBe(b.startsWith(a));
  });

  it('maps strings inside documents (keys too) and keeps BSON values and untouched objects', () => {
    const when = new Date(0);
    const doc = { a: 'x\u0000', n: 1, when, list: ['ok', { 'k\u0000': 'v' }], plain: { s: 'ok' } };
    const e = encodeValue(doc);
    expect(JSON.stringify(e).includes('\\u0000')).toBe(false);
    expect(e.when).toBe(when);
    expect(e.plain).toBe(doc.plain);
    expect(decodeValue(e)).toEqual(doc);
    const clean = { a: 'b', c: [1, 'd'] };
    expect(encodeValue(clean)).toBe(clean);
  });
});

describe.runIf(mongoSelected)('mongo store keeps NUL out of the server', () => {
  const mongo = scratchDatabase('pf_nul');
  const { db } = mongo;

  it('stores no U+0000 in any document, and reads every value back exactly', async () => {
    const store = createMongoStore({ client: mongo.client, dbName: db });
    await store.setup();
    const fact = makeFact({ id: 'fct_\u0000', text: 'tea\u0000time', subjectId: 'u\u0000' });
    await store.facts.insert([fact]);
    await store.vectors.upsert([
      vectorItem(fact.id, unitVector(1, 8), { subjectId: null }),
      vectorItem('fct_2', unitVector(2, 8), { subjectId: 'u\u0000' }),
    ]);
    const message = makeMessage({ content: 'hi\u0000there', authorDisplayName: '\u0000' });
    await store.queue.enqueueMany([message], 100);
    expect(await store.facts.get(G1, [fact.id])).toEqual([fact]);
    const hits = await store.vectors.search({
      kind: 'fact',
      guildId: G1,
      vector: unitVector(1, 8),
      limit: 5,
      serverOnly: true,
    });
    expect(hits.map((h) => h.id)).toEqual([fact.id]);
    for (const info of await mongo.client.db(db).listCollections().toArray()) {
      const docs = await mongo.client.db(db).collection(info.name).find({}).toArray();
      for (const d of docs) expect(JSON.stringify(d).includes('\\u0000'), info.name).toBe(false);
    }
    await store.close();
  });

  it('migrates server vectors written with the old raw NUL scope, where the server could hold them', async () => {
    const old = `${db}_old`;
    const raw = mongo.client.db(old).collection('fact_vectors');
    const legacy = { _id: 'legacy', guildId: G1, kind: 'fact', id: 'fct_old', sk: '\u0000', active: true };
    const held = await raw.insertOne(legacy as never).then(
      () => true,
      (error: Error) => {
        // FerretDB on PostgreSQL: jsonb refuses the character outright.
        expect(error.message).toMatch(/22P05/);
        return false;
      },
    );
    const store = createMongoStore({ client: mongo.client, dbName: old });
    await store.setup();
    if (held) expect((await raw.findOne({ _id: 'legacy' } as never))?.['sk']).toBe('\uffff0');
    await store.close();
    await mongo.client.db(old).dropDatabase();
  });
});

import { check, fmtErr, probe } from './harness.mjs';

// ---------------------------------------------------------------- findOneAndUpdate / leases
export async function probeFindOneAndUpdate({ client, client2, db, dbName }) {
  await probe('update', 'findOneAndUpdate upsert + returnDocument after', async () => {
    const c = db.collection('fau');
    const r = await c.findOneAndUpdate(
      { _id: 'k1' },
      { $set: { v: 1 }, $setOnInsert: { created: true } },
      { upsert: true, returnDocument: 'after' },
    );
    check(r?.v === 1 && r?.created === true, `returned ${JSON.stringify(r)}`);
    const r2 = await c.findOneAndUpdate({ _id: 'k1' }, { $inc: { v: 1 } }, { returnDocument: 'before' });
    check(r2?.v === 1, `before returned ${JSON.stringify(r2)}`);
    const r3 = await c.findOneAndUpdate(
      { _id: 'k1' },
      { $inc: { v: 1 } },
      { returnDocument: 'after', includeResultMetadata: true },
    );
    check(r3?.value?.v === 3 && r3?.ok === 1, `metadata form ${JSON.stringify(r3)}`);
    return 'returns doc (driver 7 default: document only; includeResultMetadata for {value,ok})';
  });

  await probe(
    'update',
    'lease: findOneAndUpdate({_id, $or:[{owner},{leaseUntil:{$lte:now}}]}, upsert)',
    async () => {
      const c = db.collection('leases');
      const acquire = async (owner, now, ttl) => {
        try {
          return await c.findOneAndUpdate(
            { _id: 'job', $or: [{ owner }, { leaseUntil: { $lte: now } }] },
            { $set: { owner, leaseUntil: new Date(now.getTime() + ttl) } },
            { upsert: true, returnDocument: 'after' },
          );
        } catch (e) {
          if (e.code === 11000) return null; // held by someone else
          throw e;
        }
      };
      const t = new Date();
      const a1 = await acquire('A', t, 10_000);
      check(a1?.owner === 'A', `A initial acquire: ${JSON.stringify(a1)}`);
      const b1 = await acquire('B', new Date(t.getTime() + 1000), 10_000);
      check(b1 === null, `B stole live lease: ${JSON.stringify(b1)}`);
      const a2 = await acquire('A', new Date(t.getTime() + 2000), 10_000);
      check(a2?.owner === 'A', 'A renew failed');
      const b2 = await acquire('B', new Date(t.getTime() + 60_000), 10_000);
      check(b2?.owner === 'B', `B after expiry: ${JSON.stringify(b2)}`);
      check((await c.countDocuments()) === 1, 'more than one lease doc');
      return 'held lease -> upsert collides on _id -> E11000 (treat as "not acquired")';
    },
  );

  await probe('update', 'unique-key upsert race (8 parallel upserts on unique non-_id key)', async () => {
    const c = db.collection('upsert_race');
    await c.createIndex({ key: 1 }, { unique: true });
    let dup = 0;
    let ok = 0;
    let lastErr = '';
    for (let round = 0; round < 20; round++) {
      const rs = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          (i % 2 ? client2 : client)
            .db(dbName)
            .collection('upsert_race')
            .findOneAndUpdate(
              { key: `r${round}` },
              { $inc: { n: 1 } },
              { upsert: true, returnDocument: 'after' },
            ),
        ),
      );
      for (const r of rs) {
        if (r.status === 'fulfilled') ok++;
        else if (r.reason?.code === 11000) {
          dup++;
          lastErr = fmtErr(r.reason);
        } else throw r.reason;
      }
    }
    const docs = await c.find().toArray();
    check(docs.length === 20, `${docs.length} docs for 20 keys`);
    const total = docs.reduce((s, d) => s + d.n, 0);
    check(total === ok, `sum n=${total} but ${ok} successful upserts`);
    return `${ok} ok, ${dup} E11000 of 160${dup ? ` (e.g. ${lastErr.slice(0, 160)})` : ''}; 1 doc/key`;
  });
}

import { check, expectError, fmtErr, probe } from './harness.mjs';

// ---------------------------------------------------------------- misc collection ops
export async function probeMisc({ db }) {
  const misc = db.collection('misc');
  await misc.insertMany(
    Array.from({ length: 30 }, (_, i) => ({ _id: i, k: i % 4, name: `n${String(i).padStart(2, '0')}` })),
  );
  await probe('misc', 'countDocuments(filter)', async () => {
    const n = await misc.countDocuments({ k: 1 });
    check(n === 8, n);
    return 'ok';
  });
  await probe('misc', 'estimatedDocumentCount', async () => {
    const n = await misc.estimatedDocumentCount();
    check(n === 30, n);
    return 'ok';
  });
  await probe('misc', 'distinct', async () => {
    const v = await misc.distinct('k');
    check(JSON.stringify([...v].sort()) === '[0,1,2,3]', JSON.stringify(v));
    return 'ok';
  });
  await probe('misc', 'find().sort().skip().limit() + projection', async () => {
    const v = await misc
      .find({}, { projection: { name: 1, _id: 0 } })
      .sort({ name: -1 })
      .skip(2)
      .limit(3)
      .toArray();
    check(JSON.stringify(v.map((d) => d.name)) === '["n27","n26","n25"]', JSON.stringify(v));
    return 'ok';
  });
  await probe('misc', 'find with compound sort {k:1,_id:-1} + cursor batching (batchSize 7)', async () => {
    const v = await misc.find({}).sort({ k: 1, _id: -1 }).batchSize(7).toArray();
    check(v.length === 30 && v[0]._id === 28 && v[29]._id === 3, `${v[0]?._id},${v[29]?._id}`);
    return 'ok';
  });
  await probe('misc', 'listCollections', async () => {
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    check(names.includes('misc') && names.includes('agg'), JSON.stringify(names));
    return `${names.length} collections`;
  });
  await probe('misc', 'collection rename + drop', async () => {
    await db.collection('to_rename').insertOne({ x: 1 });
    await db.renameCollection('to_rename', 'renamed');
    check((await db.collection('renamed').countDocuments()) === 1, 'renamed empty');
    check(await db.collection('renamed').drop(), 'drop false');
    return 'ok';
  });
  await probe('misc', 'createCollection with validator ($jsonSchema)', async () => {
    await db.createCollection('validated', {
      validator: { $jsonSchema: { bsonType: 'object', required: ['a'] } },
    });
    const e = await expectError(() => db.collection('validated').insertOne({ b: 1 }));
    check(e, 'invalid doc accepted');
    return `rejects invalid: ${fmtErr(e).slice(0, 80)}`;
  });
  await probe('misc', 'change streams (watch)', async () => {
    const cs = misc.watch();
    try {
      await cs.tryNext(); // opens the change stream; null on a real replica set
      await misc.insertOne({ _id: 1000 });
      const ev = await cs.next();
      check(ev?.operationType === 'insert', JSON.stringify(ev));
    } finally {
      await cs.close();
    }
    return 'opened';
  });
}

export async function probeDropDatabase({ client, db, dbName }) {
  await probe('misc', 'dropDatabase', async () => {
    const ok = await db.dropDatabase();
    const dbs = (await client.db('admin').admin().listDatabases()).databases.map((d) => d.name);
    check(ok && !dbs.includes(dbName), JSON.stringify(dbs));
    return 'ok';
  });
}

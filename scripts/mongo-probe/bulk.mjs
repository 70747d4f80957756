import { check, expectError, fmtErr, probe } from './harness.mjs';

// ---------------------------------------------------------------- bulk
export async function probeBulk({ db }) {
  await probe('bulk', 'bulkWrite ordered (dup in middle stops batch)', async () => {
    const c = db.collection('bulk_o');
    const e = await expectError(() =>
      c.bulkWrite(
        [
          { insertOne: { document: { _id: 1 } } },
          { insertOne: { document: { _id: 1 } } },
          { insertOne: { document: { _id: 2 } } },
        ],
        { ordered: true },
      ),
    );
    const n = await c.countDocuments();
    check(e?.code === 11000 && n === 1, `err=${e ? fmtErr(e) : 'none'} count=${n}`);
    return `MongoBulkWriteError 11000, insertedCount=${e.result?.insertedCount}, 1 doc`;
  });
  await probe('bulk', 'bulkWrite unordered (dup skipped, rest applied)', async () => {
    const c = db.collection('bulk_u');
    const e = await expectError(() =>
      c.bulkWrite(
        [
          { insertOne: { document: { _id: 1 } } },
          { insertOne: { document: { _id: 1 } } },
          { insertOne: { document: { _id: 2 } } },
          { updateOne: { filter: { _id: 2 }, update: { $set: { x: 1 } } } },
          { deleteOne: { filter: { _id: 1 } } },
        ],
        { ordered: false },
      ),
    );
    const docs = await c.find().toArray();
    check(e?.code === 11000, `err=${e ? fmtErr(e) : 'none'}`);
    check(docs.length === 1 && docs[0]._id === 2 && docs[0].x === 1, JSON.stringify(docs));
    return `writeErrors=${e.writeErrors?.length ?? '?'}; others applied`;
  });
  await probe(
    'bulk',
    'bulkWrite mixed ops ok (updateOne upsert, updateMany, deleteMany, replaceOne)',
    async () => {
      const c = db.collection('bulk_mixed');
      const r = await c.bulkWrite([
        { insertOne: { document: { _id: 1, g: 1 } } },
        { updateOne: { filter: { _id: 2 }, update: { $set: { g: 1 } }, upsert: true } },
        { updateMany: { filter: { g: 1 }, update: { $inc: { c: 1 } } } },
        { replaceOne: { filter: { _id: 1 }, replacement: { g: 2 } } },
        { deleteMany: { filter: { g: 2 } } },
      ]);
      check(
        r.insertedCount === 1 && r.upsertedCount === 1 && r.modifiedCount === 3 && r.deletedCount === 1,
        JSON.stringify(r),
      );
      return 'counts correct';
    },
  );
  await probe('bulk', 'insertMany ordered:false with duplicates', async () => {
    const c = db.collection('im_dup');
    const e = await expectError(() =>
      c.insertMany([{ _id: 1 }, { _id: 1 }, { _id: 2 }, { _id: 2 }, { _id: 3 }], { ordered: false }),
    );
    const n = await c.countDocuments();
    check(e?.code === 11000 && n === 3, `err=${e ? fmtErr(e) : 'none'} count=${n}`);
    return `insertedCount=${e.result?.insertedCount}, writeErrors=${e.writeErrors?.length}; ${fmtErr(e).slice(0, 150)}`;
  });
  await probe('bulk', 'deleteMany', async () => {
    const c = db.collection('im_dup');
    const r = await c.deleteMany({ _id: { $gte: 2 } });
    check(r.deletedCount === 2, JSON.stringify(r));
    return 'ok';
  });
}

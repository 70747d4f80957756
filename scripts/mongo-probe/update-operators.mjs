import { check, probe } from './harness.mjs';

// ---------------------------------------------------------------- update operators
export async function probeUpdateOperators({ db }) {
  // Each probe gets its own fresh document so one failure cannot cascade.
  const upd = db.collection('upd');
  let updSeq = 0;
  const base = () => ({
    n: 1,
    s: 'a',
    gone: true,
    arr: [1, 2, 3],
    set: ['x'],
    items: [
      { k: 'a', q: 1 },
      { k: 'b', q: 2 },
    ],
  });
  const updProbe = (name, update, verify, options = {}) =>
    probe('update', name, async () => {
      const _id = ++updSeq;
      await upd.insertOne({ _id, ...base() });
      const r = await upd.updateOne({ _id }, update, options);
      check(r.matchedCount === 1, `matched ${r.matchedCount}`);
      const d = await upd.findOne({ _id });
      verify(d);
      return 'ok';
    });
  await probe('update', 'updateMany $inc/$set/$unset', async () => {
    const c = db.collection('upd_many');
    await c.insertMany([
      { n: 1, s: 'a', gone: 1 },
      { n: 5, s: 'b', gone: 1 },
    ]);
    const r = await c.updateMany({}, { $inc: { n: 10 }, $set: { s: 'z' }, $unset: { gone: '' } });
    check(r.matchedCount === 2 && r.modifiedCount === 2, JSON.stringify(r));
    const ds = await c.find().sort({ n: 1 }).toArray();
    check(
      ds[0].n === 11 && ds[1].n === 15 && ds.every((d) => d.s === 'z' && !('gone' in d)),
      JSON.stringify(ds),
    );
    return 'ok';
  });
  await updProbe('$push {$each:[4,5], $slice:-3}', { $push: { arr: { $each: [4, 5], $slice: -3 } } }, (d) =>
    check(JSON.stringify(d.arr) === '[3,4,5]', `arr=${JSON.stringify(d.arr)} ($slice ignored)`),
  );
  await updProbe('$push {$each:[9,0], $sort:-1}', { $push: { arr: { $each: [9, 0], $sort: -1 } } }, (d) =>
    check(JSON.stringify(d.arr) === '[9,3,2,1,0]', `arr=${JSON.stringify(d.arr)} ($sort ignored)`),
  );
  await updProbe('$push {$each:[0], $position:0}', { $push: { arr: { $each: [0], $position: 0 } } }, (d) =>
    check(JSON.stringify(d.arr) === '[0,1,2,3]', `arr=${JSON.stringify(d.arr)} ($position ignored)`),
  );
  await updProbe('$push single value', { $push: { arr: 4 } }, (d) =>
    check(JSON.stringify(d.arr) === '[1,2,3,4]', JSON.stringify(d.arr)),
  );
  await updProbe('$pull scalar', { $pull: { arr: 2 } }, (d) =>
    check(JSON.stringify(d.arr) === '[1,3]', JSON.stringify(d.arr)),
  );
  await updProbe('$pull {$in: [...]}', { $pull: { arr: { $in: [1, 3] } } }, (d) =>
    check(JSON.stringify(d.arr) === '[2]', JSON.stringify(d.arr)),
  );
  await updProbe('$pull {arr: {$gte: 2}} (condition)', { $pull: { arr: { $gte: 2 } } }, (d) =>
    check(JSON.stringify(d.arr) === '[1]', JSON.stringify(d.arr)),
  );
  await updProbe('$pull {items: {k: "a"}} (subdoc match)', { $pull: { items: { k: 'a' } } }, (d) =>
    check(d.items.length === 1 && d.items[0].k === 'b', JSON.stringify(d.items)),
  );
  await updProbe('$pullAll', { $pullAll: { arr: [1, 2] } }, (d) =>
    check(JSON.stringify(d.arr) === '[3]', JSON.stringify(d.arr)),
  );
  await updProbe('$pop', { $pop: { arr: 1 } }, (d) =>
    check(JSON.stringify(d.arr) === '[1,2]', JSON.stringify(d.arr)),
  );
  await updProbe('$addToSet {$each} (dedupe)', { $addToSet: { set: { $each: ['x', 'y', 'y'] } } }, (d) =>
    check(JSON.stringify(d.set) === '["x","y"]', JSON.stringify(d.set)),
  );
  await updProbe(
    'arrayFilters $[el]',
    { $set: { 'items.$[el].q': 99 } },
    (d) => check(d.items[1].q === 99 && d.items[0].q === 1, JSON.stringify(d.items)),
    { arrayFilters: [{ 'el.k': 'b' }] },
  );
  await probe('update', 'positional $ (filter items.k, set items.$.q)', async () => {
    const _id = ++updSeq;
    await upd.insertOne({ _id, ...base() });
    await upd.updateOne({ _id, 'items.k': 'b' }, { $set: { 'items.$.q': 7 } });
    const d = await upd.findOne({ _id });
    check(d.items[1].q === 7, JSON.stringify(d.items));
    return 'ok';
  });
  await updProbe('all-positional $[]', { $inc: { 'items.$[].q': 1 } }, (d) =>
    check(d.items[0].q === 2 && d.items[1].q === 3, JSON.stringify(d.items)),
  );
  await updProbe('dot-path into array index (items.1.q)', { $set: { 'items.1.q': 5 } }, (d) =>
    check(d.items[1].q === 5, JSON.stringify(d.items)),
  );
  await updProbe(
    'pipeline update [{$set: {m: {$multiply: ["$n", 2]}}}]',
    [{ $set: { m: { $multiply: ['$n', 2] } } }],
    (d) => check(d.m === 2, JSON.stringify(d)),
  );
  await updProbe('pipeline update [{$set: {x: "$$NOW"}}]', [{ $set: { x: '$$NOW' } }], (d) =>
    check(d.x instanceof Date, JSON.stringify(d)),
  );
  await updProbe(
    '$max/$min/$currentDate/$rename/$mul',
    { $max: { n: 100 }, $min: { m: 1 }, $currentDate: { at: true }, $rename: { s: 's2' }, $mul: { z: 2 } },
    (d) =>
      check(d.n === 100 && d.m === 1 && d.at instanceof Date && d.s2 === 'a' && d.z === 0, JSON.stringify(d)),
  );
  await probe('update', 'upsert with $setOnInsert + query fields copied', async () => {
    const r = await upd.updateOne(
      { _id: 'ups', kind: 'k' },
      { $setOnInsert: { c: 1 }, $set: { u: 2 } },
      { upsert: true },
    );
    check(r.upsertedCount === 1 && r.upsertedId === 'ups', JSON.stringify(r));
    const d = await upd.findOne({ _id: 'ups' });
    check(d.kind === 'k' && d.c === 1 && d.u === 2, JSON.stringify(d));
    return 'ok';
  });
  await probe('update', 'replaceOne', async () => {
    const _id = ++updSeq;
    await upd.insertOne({ _id, ...base() });
    await upd.replaceOne({ _id }, { fresh: true });
    const d = await upd.findOne({ _id });
    check(d.fresh === true && !('n' in d), JSON.stringify(d));
    return 'ok';
  });
}

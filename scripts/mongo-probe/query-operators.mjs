import { check, probe } from './harness.mjs';

// ---------------------------------------------------------------- query operators
export async function probeQueryOperators({ db }) {
  const qo = db.collection('qops');
  await qo.insertMany([
    {
      _id: 1,
      tags: ['a', 'b'],
      items: [
        { k: 'a', q: 1 },
        { k: 'b', q: 5 },
      ],
      n: 1,
      s: 'Alpha',
    },
    { _id: 2, tags: ['b'], items: [{ k: 'a', q: 9 }], n: 2, s: 'beta', opt: null },
    { _id: 3, tags: [], items: [], n: 3, s: 'gamma', opt: 1 },
  ]);
  const qProbe = (name, filter, ids) =>
    probe('query', name, async () => {
      const got = (await qo.find(filter).sort({ _id: 1 }).toArray()).map((d) => d._id);
      check(
        JSON.stringify(got) === JSON.stringify(ids),
        `got ${JSON.stringify(got)} want ${JSON.stringify(ids)}`,
      );
      return 'ok';
    });
  await qProbe('$in / $nin / $ne', { n: { $in: [1, 2, 3], $nin: [3], $ne: 2 } }, [1]);
  await qProbe('$or + $and', { $or: [{ n: 1 }, { $and: [{ n: { $gt: 1 } }, { s: 'gamma' }] }] }, [1, 3]);
  await qProbe('$exists true / null vs missing', { opt: { $exists: true } }, [2, 3]);
  await qProbe('{field: null} matches null and missing', { opt: null }, [1, 2]);
  await qProbe('$all', { tags: { $all: ['a', 'b'] } }, [1]);
  await qProbe('$size', { tags: { $size: 0 } }, [3]);
  await qProbe(
    '$elemMatch subdoc, 2 fields {k, q:{$gt}}',
    { items: { $elemMatch: { k: 'a', q: { $gt: 5 } } } },
    [2],
  );
  await qProbe('$elemMatch subdoc, 1 field {q:{$gt:5}}', { items: { $elemMatch: { q: { $gt: 5 } } } }, [2]);
  await qProbe(
    '$elemMatch scalar array {$gt}',
    { n: { $exists: true }, tags: { $elemMatch: { $gt: 'a' } } },
    [1, 2],
  );
  await qProbe('dot-path into array of subdocs (items.k)', { 'items.k': 'b' }, [1]);
  await qProbe('$not + $regex', { s: { $not: /^g/ } }, [1, 2]);
  await qProbe('$regex /^a/i', { s: { $regex: '^a', $options: 'i' } }, [1]);
  await qProbe('$expr', { $expr: { $gt: ['$n', 1] } }, [2, 3]);
  await qProbe('$type', { opt: { $type: 'null' } }, [2]);
  await qProbe('$mod', { n: { $mod: [2, 1] } }, [1, 3]);
}

import { check, probe } from './harness.mjs';

// ---------------------------------------------------------------- aggregation
export async function probeAggregation({ db }) {
  const ag = db.collection('agg');
  await ag.insertMany(
    Array.from({ length: 50 }, (_, i) => ({
      _id: i,
      g: i % 5,
      v: i,
      tags: [`t${i % 3}`, 'all'],
      ref: i % 5,
    })),
  );
  const refs = db.collection('agg_refs');
  await refs.insertMany(Array.from({ length: 5 }, (_, i) => ({ _id: i, name: `ref${i}` })));
  const aggProbe = (name, pipeline, verify) =>
    probe('aggregate', name, async () => {
      const out = await ag.aggregate(pipeline).toArray();
      verify(out);
      return 'ok';
    });
  await aggProbe('$match', [{ $match: { g: 1 } }], (o) => check(o.length === 10, o.length));
  await aggProbe(
    '$group $sum/$max + $sort + $limit',
    [
      { $group: { _id: '$g', total: { $sum: '$v' }, mx: { $max: '$v' }, n: { $sum: 1 } } },
      { $sort: { total: -1 } },
      { $limit: 2 },
    ],
    (o) =>
      check(
        o.length === 2 && o[0]._id === 4 && o[0].total === 245 && o[0].mx === 49 && o[0].n === 10,
        JSON.stringify(o),
      ),
  );
  for (const acc of ['$sum', '$avg', '$min', '$max', '$first', '$last', '$push', '$addToSet', '$count']) {
    const spec = acc === '$count' ? {} : acc === '$sum' ? '$v' : '$v';
    await aggProbe(
      `$group accumulator ${acc}`,
      [{ $sort: { _id: 1 } }, { $group: { _id: '$g', x: { [acc]: spec } } }],
      (o) => check(o.length === 5, JSON.stringify(o).slice(0, 80)),
    );
  }
  await aggProbe(
    '$group with 2 accumulators {total:{$sum:"$v"}, n:{$sum:1}}',
    [{ $match: { g: 0 } }, { $group: { _id: '$g', total: { $sum: '$v' }, n: { $sum: 1 } } }],
    (o) =>
      check(
        o[0]?.total === 225 && o[0]?.n === 10,
        `got ${JSON.stringify(o)} (only first accumulator computed)`,
      ),
  );
  await aggProbe('$group {_id:null, n:{$sum:1}}', [{ $group: { _id: null, n: { $sum: 1 } } }], (o) =>
    check(o[0]?.n === 50, JSON.stringify(o)),
  );
  await aggProbe(
    '$project inclusion/exclusion',
    [{ $match: { _id: 3 } }, { $project: { _id: 0, v: 1 } }],
    (o) => check(o.length === 1 && o[0].v === 3 && !('g' in o[0]), JSON.stringify(o)),
  );
  await aggProbe(
    '$project (computed)',
    [{ $match: { _id: 3 } }, { $project: { _id: 0, w: { $add: ['$v', 1] } } }],
    (o) => check(o.length === 1 && o[0].w === 4, JSON.stringify(o)),
  );
  await aggProbe('$unwind', [{ $match: { _id: 0 } }, { $unwind: '$tags' }], (o) =>
    check(o.length === 2, o.length),
  );
  await aggProbe('$count', [{ $match: { g: 2 } }, { $count: 'n' }], (o) =>
    check(o[0]?.n === 10, JSON.stringify(o)),
  );
  await aggProbe(
    '$lookup (localField/foreignField)',
    [
      { $match: { _id: 7 } },
      { $lookup: { from: 'agg_refs', localField: 'ref', foreignField: '_id', as: 'r' } },
    ],
    (o) => check(o[0]?.r?.[0]?.name === 'ref2', JSON.stringify(o)),
  );
  await aggProbe(
    '$lookup (pipeline + let)',
    [
      { $match: { _id: 7 } },
      {
        $lookup: {
          from: 'agg_refs',
          let: { r: '$ref' },
          pipeline: [{ $match: { $expr: { $eq: ['$_id', '$$r'] } } }],
          as: 'r',
        },
      },
    ],
    (o) => check(o[0]?.r?.[0]?.name === 'ref2', JSON.stringify(o)),
  );
  await aggProbe(
    '$facet',
    [{ $facet: { a: [{ $match: { g: 0 } }, { $count: 'n' }], b: [{ $limit: 3 }] } }],
    (o) => check(o[0]?.a?.[0]?.n === 10 && o[0]?.b?.length === 3, JSON.stringify(o)),
  );
  await aggProbe('$sample', [{ $sample: { size: 5 } }], (o) => check(o.length === 5, o.length));
  await aggProbe(
    '$addFields + $skip',
    [{ $sort: { _id: 1 } }, { $skip: 48 }, { $addFields: { x: 1 } }],
    (o) => check(o.length === 2 && o[0].x === 1, JSON.stringify(o)),
  );
  await aggProbe('$sortByCount', [{ $sortByCount: '$g' }], (o) =>
    check(o.length === 5 && o[0].count === 10, JSON.stringify(o)),
  );
}

import { check, probe } from './harness.mjs';

// ---------------------------------------------------------------- transactions, vector search
export async function probeSessionsAndSearch({ client, db }) {
  const ag = db.collection('agg');
  await probe('session', 'session.withTransaction', async () => {
    const c = db.collection('tx');
    await c.insertOne({ _id: 0 });
    const session = client.startSession();
    try {
      await session.withTransaction(async () => {
        await c.insertOne({ _id: 1 }, { session });
        await c.updateOne({ _id: 0 }, { $set: { x: 1 } }, { session });
      });
    } finally {
      await session.endSession();
    }
    const n = await c.countDocuments();
    check(n === 2, `count ${n}`);
    return 'committed';
  });
  await probe('session', 'transaction abort rolls back', async () => {
    const c = db.collection('tx2');
    const session = client.startSession();
    try {
      session.startTransaction();
      await c.insertOne({ _id: 1 }, { session });
      await session.abortTransaction();
    } finally {
      await session.endSession();
    }
    const n = await c.countDocuments();
    check(n === 0, `abort left ${n} docs (no real transaction)`);
    return 'rolled back';
  });
  await probe('session', 'explicit session without transaction (causal consistency)', async () => {
    const c = db.collection('sess');
    const session = client.startSession({ causalConsistency: true });
    try {
      await c.insertOne({ _id: 1 }, { session });
      const d = await c.findOne({ _id: 1 }, { session });
      check(d?._id === 1, 'read-your-write');
    } finally {
      await session.endSession();
    }
    return 'ok';
  });
  await probe('search', '$vectorSearch aggregation stage', async () => {
    await ag
      .aggregate([
        {
          $vectorSearch: { index: 'vec', path: 'emb', queryVector: [0.1, 0.2], numCandidates: 10, limit: 2 },
        },
      ])
      .toArray();
    return 'accepted';
  });
  await probe('search', 'createSearchIndex (type vectorSearch)', async () => {
    await ag.createSearchIndex({
      name: 'vec',
      type: 'vectorSearch',
      definition: { fields: [{ type: 'vector', path: 'emb', numDimensions: 2, similarity: 'cosine' }] },
    });
    return 'accepted';
  });
}

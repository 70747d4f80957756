import { check, probe } from './harness.mjs';

// ---------------------------------------------------------------- concurrency
export async function probeConcurrency({ client, client2, dbName }) {
  await probe('concurrency', 'two clients CAS-grant same doc, 300 rounds: no double grant', async () => {
    const name = 'cas';
    const ca = client.db(dbName).collection(name);
    const cb = client2.db(dbName).collection(name);
    await ca.insertOne({ _id: 'lock', holder: null, ver: 0 });
    let double = 0;
    let none = 0;
    for (let round = 0; round < 300; round++) {
      const grab = (c, who) =>
        c.findOneAndUpdate(
          { _id: 'lock', holder: null, ver: round },
          { $set: { holder: who }, $inc: { ver: 1 } },
          { returnDocument: 'after' },
        );
      const [ra, rb] = await Promise.all([grab(ca, 'A'), grab(cb, 'B')]);
      const grants = (ra ? 1 : 0) + (rb ? 1 : 0);
      if (grants > 1) double++;
      if (grants === 0) none++;
      await ca.updateOne({ _id: 'lock' }, { $set: { holder: null } });
    }
    const d = await ca.findOne({ _id: 'lock' });
    check(double === 0 && none === 0 && d.ver === 300, `double=${double} none=${none} ver=${d.ver}`);
    return 'exactly one grant per round';
  });
  await probe('concurrency', 'two clients x 4 parallel $inc x 250: no lost update', async () => {
    const ca = client.db(dbName).collection('ctr');
    const cb = client2.db(dbName).collection('ctr');
    await ca.insertOne({ _id: 'c', n: 0 });
    const worker = async (c) => {
      for (let i = 0; i < 250; i++) await c.updateOne({ _id: 'c' }, { $inc: { n: 1 } });
    };
    await Promise.all([worker(ca), worker(ca), worker(cb), worker(cb)]);
    const d = await ca.findOne({ _id: 'c' });
    check(d.n === 1000, `n=${d.n}`);
    return 'n=1000';
  });
  await probe(
    'concurrency',
    'read-modify-write with version CAS (updateOne {_id, ver}) 2 clients x 200',
    async () => {
      const ca = client.db(dbName).collection('rmw');
      const cb = client2.db(dbName).collection('rmw');
      await ca.insertOne({ _id: 'd', ver: 0, log: [] });
      let conflicts = 0;
      const worker = async (c, who) => {
        for (let i = 0; i < 200; i++) {
          for (;;) {
            const cur = await c.findOne({ _id: 'd' });
            const r = await c.updateOne(
              { _id: 'd', ver: cur.ver },
              { $set: { ver: cur.ver + 1, last: who } },
            );
            if (r.modifiedCount === 1) break;
            conflicts++;
          }
        }
      };
      await Promise.all([worker(ca, 'A'), worker(cb, 'B')]);
      const d = await ca.findOne({ _id: 'd' });
      check(d.ver === 400, `ver=${d.ver}`);
      return `ver=400 (${conflicts} CAS conflicts retried)`;
    },
  );

  const race = async (rounds, fnA, fnB) => {
    const out = [];
    for (let round = 0; round < rounds; round++) {
      out.push(await Promise.allSettled([fnA(round), fnB(round)]));
    }
    return out;
  };
  await probe(
    'concurrency',
    '$or-lease findOneAndUpdate upsert on EXPIRED lease, 2 clients x 200 rounds',
    async () => {
      const ca = client.db(dbName).collection('lease_race');
      const cb = client2.db(dbName).collection('lease_race');
      const acquire = async (c, owner, now) => {
        try {
          return await c.findOneAndUpdate(
            { _id: 'job', $or: [{ owner }, { leaseUntil: { $lte: now } }] },
            { $set: { owner, leaseUntil: new Date(now.getTime() + 1000) } },
            { upsert: true, returnDocument: 'after' },
          );
        } catch (e) {
          if (e.code === 11000) return null;
          throw e;
        }
      };
      let double = 0;
      for (let r = 0; r < 200; r++) {
        await ca.updateOne(
          { _id: 'job' },
          { $set: { owner: 'C', leaseUntil: new Date(0) } },
          { upsert: true },
        );
        const now = new Date();
        const [x, y] = await Promise.all([acquire(ca, 'A', now), acquire(cb, 'B', now)]);
        if (x && y) double++;
      }
      check(double === 0, `${double}/200 rounds granted the lease to both A and B`);
      return 'one winner per round';
    },
  );
  await probe('concurrency', 'two clients insertOne same _id, 300 rounds: exactly one wins', async () => {
    const ca = client.db(dbName).collection('ins_race');
    const cb = client2.db(dbName).collection('ins_race');
    const rs = await race(
      300,
      (r) => ca.insertOne({ _id: `r${r}`, by: 'A' }),
      (r) => cb.insertOne({ _id: `r${r}`, by: 'B' }),
    );
    const bad = rs.filter((pair) => pair.filter((x) => x.status === 'fulfilled').length !== 1).length;
    const other = rs.flat().filter((x) => x.status === 'rejected' && x.reason?.code !== 11000);
    check(bad === 0 && other.length === 0, `bad rounds ${bad}, non-11000 errors ${other.length}`);
    return 'loser always gets E11000';
  });
  await probe(
    'concurrency',
    'two clients deleteOne same _id, 300 rounds: exactly one deletedCount=1',
    async () => {
      const ca = client.db(dbName).collection('del_race');
      const cb = client2.db(dbName).collection('del_race');
      await ca.insertMany(Array.from({ length: 300 }, (_, r) => ({ _id: `r${r}` })));
      const rs = await race(
        300,
        (r) => ca.deleteOne({ _id: `r${r}` }),
        (r) => cb.deleteOne({ _id: `r${r}` }),
      );
      const bad = rs.filter((p) => p.reduce((s, x) => s + (x.value?.deletedCount ?? 0), 0) !== 1).length;
      check(bad === 0, `${bad} rounds with != 1 deletion credited`);
      return 'claim-by-delete is atomic';
    },
  );
  await probe(
    'concurrency',
    'two clients findOneAndDelete same _id, 300 rounds: exactly one gets the doc',
    async () => {
      const ca = client.db(dbName).collection('fad_race');
      const cb = client2.db(dbName).collection('fad_race');
      await ca.insertMany(Array.from({ length: 300 }, (_, r) => ({ _id: `r${r}` })));
      const rs = await race(
        300,
        (r) => ca.findOneAndDelete({ _id: `r${r}` }),
        (r) => cb.findOneAndDelete({ _id: `r${r}` }),
      );
      const bad = rs.filter((p) => p.filter((x) => x.value).length !== 1).length;
      check(bad === 0, `${bad}/300 rounds where both (or neither) got the doc`);
      return 'ok';
    },
  );
  await probe(
    'concurrency',
    'generation lease (insert {_id: res#gen}) 2 clients x 300 rounds: no double grant',
    async () => {
      const ca = client.db(dbName).collection('lease_gen');
      const cb = client2.db(dbName).collection('lease_gen');
      const tryAcquire = async (c, who, gen) => {
        try {
          await c.insertOne({
            _id: `job#${gen}`,
            res: 'job',
            gen,
            owner: who,
            leaseUntil: new Date(Date.now() + 1000),
          });
          return true;
        } catch (e) {
          if (e.code === 11000) return false;
          throw e;
        }
      };
      const rs = await race(
        300,
        (r) => tryAcquire(ca, 'A', r),
        (r) => tryAcquire(cb, 'B', r),
      );
      const bad = rs.filter((p) => p.filter((x) => x.value === true).length !== 1).length;
      check(bad === 0, `${bad} rounds without exactly one grant`);
      return 'exactly one grant per generation';
    },
  );
  await probe(
    'concurrency',
    'concurrent updates to DIFFERENT fields of one doc (2 clients x 200)',
    async () => {
      const ca = client.db(dbName).collection('fields');
      const cb = client2.db(dbName).collection('fields');
      await ca.insertOne({ _id: 'f', a: 0, b: 0 });
      const w = async (c, f) => {
        for (let i = 1; i <= 200; i++) await c.updateOne({ _id: 'f' }, { $set: { [f]: i } });
      };
      await Promise.all([w(ca, 'a'), w(cb, 'b')]);
      const d = await ca.findOne({ _id: 'f' });
      check(d.a === 200 && d.b === 200, `a=${d.a} b=${d.b} (whole-document last-writer-wins)`);
      return 'both fields final';
    },
  );
}

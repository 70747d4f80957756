#!/usr/bin/env node
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
// Capability probe for a MongoDB-wire server (real MongoDB, Atlas or FerretDB).
//
//   MONGO_URL=mongodb://127.0.0.1:27017/ node scripts/mongo-probe.mjs [--json out.json] [--ttl-wait 70]
//
// Every probe checks semantics, not just "no error": a probe is `ok` only when the server did
// what real MongoDB does. Failures carry the exact server/driver error text.
// Uses the `mongodb` driver that packages/store-mongo depends on.
//
// This file parses arguments, connects, runs the probe groups in scripts/mongo-probe/ in a fixed
// order and prints/writes the results; the probes themselves live in those modules.
import { probeAggregation } from './mongo-probe/aggregation.mjs';
import { probeBulk } from './mongo-probe/bulk.mjs';
import { probeConcurrency } from './mongo-probe/concurrency.mjs';
import { probeFindOneAndUpdate } from './mongo-probe/find-one-and-update.mjs';
import { results } from './mongo-probe/harness.mjs';
import { readIdentity } from './mongo-probe/identity.mjs';
import { probeIndexes, probeTtlExpiry } from './mongo-probe/indexes.mjs';
import { probeDropDatabase, probeMisc } from './mongo-probe/misc.mjs';
import { probePerf } from './mongo-probe/perf.mjs';
import { probeQueryOperators } from './mongo-probe/query-operators.mjs';
import { probeSessionsAndSearch } from './mongo-probe/sessions-search.mjs';
import { probeTypes } from './mongo-probe/types.mjs';
import { probeUpdateOperators } from './mongo-probe/update-operators.mjs';

const require = createRequire(new URL('../packages/store-mongo/package.json', import.meta.url));
const { MongoClient } = require('mongodb');

const args = process.argv.slice(2);
const argValue = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : dflt;
};
const jsonOut = argValue('--json', '');
const ttlWaitSec = Number(argValue('--ttl-wait', '70'));

const url = process.env.MONGO_URL;
if (!url) {
  console.error('MONGO_URL is not set');
  process.exit(2);
}

const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
const client2 = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
await client.connect();
await client2.connect();
const dbName = `probe_${process.pid}_${Date.now()}`;
const db = client.db(dbName);
const ctx = { client, client2, db, dbName };

const identity = await readIdentity(client);

// Order matters: the report lists probes in run order, and the groups share one database (the
// search probes and listCollections use the `agg` collection the aggregation group fills; the slow
// TTL expiry check runs last, and only when the TTL index probe passed).
await probeIndexes(ctx);
await probeFindOneAndUpdate(ctx);
await probeUpdateOperators(ctx);
await probeQueryOperators(ctx);
await probeBulk(ctx);
await probeAggregation(ctx);
await probeSessionsAndSearch(ctx);
await probeTypes(ctx);
await probeMisc(ctx);
await probeConcurrency(ctx);
const perf = await probePerf(ctx);
await probeTtlExpiry(ctx, ttlWaitSec);
await probeDropDatabase(ctx);

await client.close();
await client2.close();

const report = { url, at: new Date().toISOString(), identity, perf, results };
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(report, null, 2)}\n`);
const esc = (s) => String(s).replaceAll('|', '\\|').replaceAll('\n', ' ');
console.log(`# ${url} — buildInfo.version ${identity.buildInfo.version}`);
console.log(`hello keys: ${identity.helloKeys.join(', ')}`);
console.log(`buildInfo keys: ${identity.buildInfoKeys.join(', ')}`);
console.log(`buildInfo: ${JSON.stringify(identity.buildInfo)}`);
console.log(`hello: ${JSON.stringify(identity.hello)}\n`);
console.log('| area | probe | result | detail / error |');
console.log('| --- | --- | --- | --- |');
for (const r of results) {
  console.log(`| ${r.area} | ${esc(r.name)} | ${r.ok ? 'OK' : 'FAIL'} | ${esc(r.ok ? r.detail : r.error)} |`);
}
const failed = results.filter((r) => !r.ok).length;
console.log(`\n${results.length - failed} ok, ${failed} not supported/incorrect`);

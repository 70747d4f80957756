#!/usr/bin/env node
// Measures @permafrost/embeddings-local on a fetched model: first-load time, extra RSS after loading,
// and throughput on 1,000 short chat sentences. Needs `pnpm exec tsc -b` and scripts/fetch-model.
//   node scripts/measure-embeddings-local.mjs [modelPath] [--batch 32] [--threads N] [--dtype q8|fp32]
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const positional = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1]?.startsWith('--')));
const modelPath = positional[0] ?? process.env.PERMAFROST_MODEL_PATH;
const batchSize = Number(flag('--batch', '32'));
const threads = flag('--threads', undefined);
const dtype = flag('--dtype', 'q8');

const subjects = [
  'I',
  'My sister',
  'The bot',
  'We',
  'Our team',
  'My dog',
  'He',
  'She',
  'The server',
  'Everyone',
];
const verbs = ['loves', 'hates', 'keeps forgetting', 'just started', 'is learning', 'talked about', 'fixed'];
const objects = [
  'coding in Go',
  'the new raid schedule',
  'pineapple on pizza',
  'the login bug',
  'playing guitar at night',
  'moving to Berlin next spring',
  'the voice channel settings',
  'running five kilometres',
  'sushi for dinner',
  'the exam on Friday',
  'horror movies',
  'the rent going up',
  'tea instead of coffee',
  'the Discord outage',
];
const texts = [];
for (let i = 0; texts.length < 1000; i++) {
  const s = subjects[i % subjects.length];
  const v = verbs[Math.floor(i / subjects.length) % verbs.length];
  const o = objects[(i * 7 + Math.floor(i / 70)) % objects.length];
  texts.push(`${s} ${v} ${o}${i % 3 === 0 ? ' lol' : i % 3 === 1 ? '!' : '.'} (#${i})`);
}

const mb = (n) => (n / 1024 / 1024).toFixed(1);
const here = path.dirname(fileURLToPath(import.meta.url));
globalThis.gc?.();
const rss0 = process.memoryUsage().rss;
const { createLocalEmbedder } = await import(path.join(here, '../packages/embeddings-local/dist/index.js'));
const embedder = createLocalEmbedder({
  ...(modelPath ? { modelPath } : {}),
  batchSize,
  dtype,
  ...(threads ? { threads: Number(threads) } : {}),
});
let t = performance.now();
const dims = await embedder.load();
const loadMs = performance.now() - t;
globalThis.gc?.();
const rssLoaded = process.memoryUsage().rss;

await embedder.embed(texts.slice(0, batchSize)); // warm-up
const runs = [];
for (let r = 0; r < 3; r++) {
  t = performance.now();
  const out = await embedder.embed(texts);
  runs.push(performance.now() - t);
  if (out.length !== texts.length) throw new Error('wrong count');
}
const rssAfter = process.memoryUsage().rss;
const best = Math.min(...runs);
const median = [...runs].sort((a, b) => a - b)[1];
console.log(
  JSON.stringify(
    {
      model: embedder.id,
      folder: embedder.modelFolder,
      dimensions: dims,
      batchSize,
      threads: threads ? Number(threads) : 'default',
      texts: texts.length,
      firstLoadMs: Math.round(loadMs),
      textsPerSecondMedian: Math.round(texts.length / (median / 1000)),
      textsPerSecondBest: Math.round(texts.length / (best / 1000)),
      rssBeforeMB: mb(rss0),
      rssAfterLoadMB: mb(rssLoaded),
      extraRssAfterLoadMB: mb(rssLoaded - rss0),
      extraRssAfterEmbeddingMB: mb(rssAfter - rss0),
    },
    null,
    2,
  ),
);
await embedder.close();

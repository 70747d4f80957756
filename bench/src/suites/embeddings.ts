/**
 * Suite 6 — local embeddings: all-MiniLM-L6-v2 (q8 ONNX) throughput in texts/s at batch 32 and
 * the resident memory the model adds, when the model folder exists (scripts/fetch-model).
 */
import { makeMembers, makeQuestions } from '../community.js';
import { peakRssMiB, rssMiB } from '../harness/env.js';
import { tryLocalEmbedder } from '../harness/local-model.js';
import { median, round, type Suite, type SuiteOutput } from '../harness/suite.js';
import { barChart } from '../harness/svg.js';
import { summarize } from '../stats.js';

export const embeddingsSuite: Suite = async (ctx): Promise<SuiteOutput> => {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const rssBefore = rssMiB();
  const local = await tryLocalEmbedder();
  if (!('embedder' in local))
    return {
      title: 'local embeddings throughput',
      status: 'not-run',
      notRunReason: local.reason,
      parameters: {},
      targets: [],
    };
  const { embedder, folder } = local;
  try {
    const rssLoaded = rssMiB();
    const batch = 32;
    const batches = ctx.quick ? 8 : 40;
    const reps = ctx.quick ? 2 : 3;
    const members = makeMembers(200);
    const texts = makeQuestions(batch * batches * reps + batch * 2, members, 21).map(
      (q, i) => `${q.text} ${i}`,
    );
    let at = 0;
    const next = (n: number) => {
      const chunk = texts.slice(at, at + n);
      at += n;
      return chunk;
    };
    for (let i = 0; i < 2; i++) await embedder.embed(next(batch));
    const perRep: number[] = [];
    const batchMs: number[] = [];
    for (let r = 0; r < reps; r++) {
      const t0 = performance.now();
      for (let b = 0; b < batches; b++) {
        const t = performance.now();
        await embedder.embed(next(batch));
        batchMs.push(performance.now() - t);
      }
      perRep.push((batch * batches) / ((performance.now() - t0) / 1000));
    }
    const single: number[] = [];
    for (const q of makeQuestions(ctx.quick ? 30 : 100, members, 22)) {
      const t = performance.now();
      await embedder.embed([q.text]);
      single.push(performance.now() - t);
    }
    gc?.();
    const rssAfter = rssMiB();
    const textsPerSecond = median(perRep);
    return {
      title: 'local embeddings (all-MiniLM-L6-v2, q8 ONNX) throughput and memory',
      parameters: {
        model: folder,
        dimensions: embedder.dimensions,
        batchSize: batch,
        batchesPerRepetition: batches,
        repetitions: reps,
        warmupBatches: 2,
        threads: 'onnxruntime default',
      },
      samples: { batch32Ms: { unit: 'ms', values: batchMs }, singleTextMs: { unit: 'ms', values: single } },
      latencies: { batch32: summarize(batchMs), singleText: summarize(single) },
      ratios: { batchSpeedupPerText: round(summarize(single).p50 / (summarize(batchMs).p50 / batch), 2) },
      results: {
        textsPerSecond: Math.round(textsPerSecond),
        perRepetitionTextsPerSecond: perRep.map((x) => Math.round(x)),
        rssBeforeLoadMiB: rssBefore,
        rssAfterLoadMiB: rssLoaded,
        rssAfterRunMiB: rssAfter,
        modelExtraRssMiB: round(rssAfter - rssBefore, 1),
        peakRssMiB: peakRssMiB(),
      },
      targets: [],
      charts: [
        {
          file: 'embeddings.svg',
          title: 'texts/s per repetition',
          svg: barChart({
            title: 'local embedder throughput (texts/s, batch 32)',
            yLabel: 'texts / s',
            categories: perRep.map((_, i) => `rep ${i + 1}`),
            series: [{ name: 'texts/s', values: perRep.map((x) => Math.round(x)) }],
          }),
        },
      ],
      notes: [
        `No SPEC target; reported for sizing. The model adds ${round(rssAfter - rssBefore, 1)} MiB of resident memory (RSS after loading and embedding, minus RSS before loading). Question-length texts (~10 words).`,
      ],
    };
  } finally {
    await embedder.close();
  }
};

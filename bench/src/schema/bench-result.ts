import { z } from 'zod';

/** Latency summary in milliseconds (bench/src/stats.ts). */
export const latencySchema = z
  .object({
    n: z.number().int().min(0),
    p50: z.number().min(0),
    p95: z.number().min(0),
    p99: z.number().min(0),
    mean: z.number().min(0),
    max: z.number().min(0),
  })
  .strict();

/** One target of SPEC §10 (or of the issue) and whether this run met it. */
export const targetSchema = z
  .object({
    id: z.string().min(1),
    /** What is measured, e.g. "promptContext p95 at 10k facts". */
    description: z.string().min(1),
    /** The threshold as written, e.g. "≤ 5 ms". */
    threshold: z.string().min(1),
    comparator: z.enum(['<', '<=', '>', '>=']),
    limit: z.number(),
    unit: z.string(),
    /** The measured value (null when not measured). */
    value: z.number().nullable(),
    /** null: not measured in this run (see note). */
    met: z.boolean().nullable(),
    note: z.string().optional(),
  })
  .strict();

export const machineSchema = z
  .object({
    cpuModel: z.string(),
    cores: z.number().int().min(1),
    totalMemoryGiB: z.number().min(0),
    platform: z.string(),
    arch: z.string(),
    release: z.string(),
    loadAverageBefore: z.array(z.number()).length(3),
    loadAverageAfter: z.array(z.number()).length(3),
  })
  .strict();

/** A raw sample series; long series are strided down to at most 5,000 values (then `sampled`). */
export const sampleSeriesSchema = z
  .object({
    unit: z.string(),
    count: z.number().int().min(0),
    sampled: z.boolean(),
    values: z.array(z.number()),
  })
  .strict();

export const chartSchema = z.object({ file: z.string().regex(/\.svg$/), title: z.string() }).strict();

/** The envelope every suite writes to `bench/results/<suite>.json`. */
export const benchResultSchema = z
  .object({
    schemaVersion: z.literal(1),
    suite: z.string().regex(/^[a-z0-9-]+$/),
    title: z.string().min(1),
    /** ok: everything ran; partial: some parts were skipped or time-boxed; not-run: see notRunReason. */
    status: z.enum(['ok', 'partial', 'not-run']),
    notRunReason: z.string().optional(),
    quick: z.boolean(),
    machine: machineSchema,
    node: z.string().regex(/^v\d+\.\d+\.\d+/),
    gitSha: z.string().min(1),
    date: z.iso.datetime(),
    durationSeconds: z.number().min(0),
    parameters: z.record(z.string(), z.unknown()),
    samples: z.record(z.string(), sampleSeriesSchema),
    latencies: z.record(z.string(), latencySchema),
    ratios: z.record(z.string(), z.number()),
    results: z.record(z.string(), z.unknown()),
    targets: z.array(targetSchema),
    charts: z.array(chartSchema),
    notes: z.array(z.string()),
  })
  .strict();

export type BenchResult = z.output<typeof benchResultSchema>;
export type Target = z.output<typeof targetSchema>;
export type SampleSeries = z.output<typeof sampleSeriesSchema>;

/** Parses a result document; throws with the failing paths listed. */
export function validateBenchResult(value: unknown): BenchResult {
  const r = benchResultSchema.safeParse(value);
  if (r.success) return r.data;
  const where = r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  throw new Error(`bench result does not match the schema: ${where}`);
}

/** The same schema as JSON Schema (written next to the results as schema.json). */
export function benchResultJsonSchema(): unknown {
  return z.toJSONSchema(benchResultSchema, { target: 'draft-2020-12' });
}

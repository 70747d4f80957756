// Shared probe harness: every probe group appends to the one `results` list, in run order.
import { performance } from 'node:perf_hooks';

export const results = [];
export const fmtErr = (e) => {
  const parts = [e?.name ?? 'Error'];
  if (e?.code !== undefined) parts.push(`code=${e.code}`);
  if (e?.codeName) parts.push(`(${e.codeName})`);
  return `${parts.join(' ')}: ${e?.message ?? String(e)}`;
};
export const check = (cond, msg) => {
  if (!cond) throw new Error(`semantic mismatch: ${msg}`);
};
export async function probe(area, name, fn) {
  const t0 = performance.now();
  try {
    const detail = await fn();
    results.push({ area, name, ok: true, detail: detail ?? '', ms: Math.round(performance.now() - t0) });
  } catch (e) {
    results.push({ area, name, ok: false, error: fmtErr(e), ms: Math.round(performance.now() - t0) });
  }
}
export const expectError = async (fn) => {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  return null;
};

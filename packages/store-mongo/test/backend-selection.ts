/**
 * Which backends this run tests: env `STORES` (comma-separated, default `memory,sqlite`; CI sets
 * `memory,sqlite,mongo`). When `mongo` is selected the Mongo test files must reach `MONGO_URL` or
 * fail; when it is not selected they register their suites as skipped, explicitly.
 */
const { STORES, MONGO_URL } = process.env;

export const selectedStores: readonly string[] = (STORES ?? 'memory,sqlite')
  .split(',')
  .map((s) => s.trim())
  .filter((s) => s.length > 0);

export const mongoSelected = selectedStores.includes('mongo');

export function requireMongoUrl(): string {
  const url = MONGO_URL;
  if (!url) {
    throw new Error(
      'STORES includes mongo but MONGO_URL is not set: start a server (eval "$(scripts/ferretdb.sh start)") or remove mongo from STORES',
    );
  }
  return url;
}

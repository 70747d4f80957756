import { normalizeAlias } from '../identity/aliases.js';

/** URL-safe slug of an entity name: lowercase, runs of other characters become "-". */
export function entitySlug(name: string): string {
  return normalizeAlias(name)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}

import { z } from 'zod';
import { AliasSource, aliasSourceRank } from '../model/enums.js';
import type { Alias } from '../model/graph.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { idField as id, parseInput, userIdField } from '../validation/index.js';
import { aliasWeight, isValidAlias, looksLikeSnowflake, normalizeAlias } from './aliases.js';
import { compareAliases, decideAliases, MIN_PREFIX_CHARS, type Resolution } from './resolution.js';
import { reconcileTwins } from './twins.js';

export interface IdentityDeps {
  readonly store: MemoryStore;
  readonly clock: Clock;
  isBot(userId: string): boolean;
  readonly logger?: Logger;
}

const values = <T extends Record<string, string>>(o: T) => Object.values(o) as [T[keyof T], ...T[keyof T][]];

const resolveSchema = z.object({ guildId: id, identifier: z.string().max(512) }).strict();
const resolveManySchema = z
  .object({ guildId: id, identifiers: z.array(z.string().max(512)).max(500) })
  .strict();
const registerSchema = z
  .object({
    guildId: id,
    userId: userIdField,
    alias: z.string().max(512),
    source: z.enum(values(AliasSource)).default(AliasSource.DISPLAY_NAME),
    /** Overrides the source's base weight (0–3). */
    weight: z.number().min(0).max(3).optional(),
  })
  .strict();
const renameSchema = z
  .object({ guildId: id, userId: userIdField, displayName: z.string().max(512) })
  .strict();
const userSchema = z.object({ guildId: id, userId: userIdField }).strict();
const twinsSchema = z.object({ guildId: id, alias: z.string().max(512) }).strict();

export type RegisterAliasInput = z.input<typeof registerSchema>;

export interface IdentityService {
  /** Mention id → itself; exact alias (by source rank, weight); prefix (≥ 3 chars). Ambiguity resolves to null. */
  resolve(input: z.input<typeof resolveSchema>): Promise<Resolution>;
  resolveMany(input: z.input<typeof resolveManySchema>): Promise<Resolution[]>;
  /**
   * Binds a name to a member (upsert keeps the higher weight). Returns false when the name is not
   * a usable alias (too short or long, an id-like digit string, a mention tag), or the member is a bot
   * or opted out of memory.
   */
  registerAlias(input: RegisterAliasInput): Promise<boolean>;
  /** Adds the new display name as an alias; old names stay and no fact moves. */
  handleMemberRename(input: z.input<typeof renameSchema>): Promise<boolean>;
  /** Every alias of the member, strongest first (source rank, then weight). */
  aliasesOf(input: z.input<typeof userSchema>): Promise<Alias[]>;
  /** The strongest alias, or null. */
  displayName(input: z.input<typeof userSchema>): Promise<string | null>;
  /** Links person entities sharing this alias to the member it uniquely names (unlinks when ambiguous). */
  reconcileTwins(input: { readonly guildId: string; readonly alias: string }): Promise<number>;
}

const MENTION = /^<@!?(\d{15,25})>$/;
const MAX_MATCHES = 8;

/** Resolves a name to a member through the alias ladder (no store writes). */
export async function resolveIdentifier(
  store: MemoryStore,
  guildId: string,
  identifier: string,
): Promise<Resolution> {
  const raw = identifier.trim();
  const mention = MENTION.exec(raw)?.[1];
  const asId = mention ?? (looksLikeSnowflake(raw) ? raw : null);
  if (asId !== null)
    return {
      identifier,
      resolved: asId,
      candidates: [
        { userId: asId, matchedAlias: asId, source: AliasSource.MENTION, weight: 1, confidence: 1 },
      ],
      ambiguous: false,
      basis: 'id',
    };
  const alias = normalizeAlias(raw);
  if (!isValidAlias(alias))
    return { identifier, resolved: null, candidates: [], ambiguous: false, basis: 'unresolved' };
  const exact = await store.aliases.find(guildId, alias, MAX_MATCHES);
  if (exact.length > 0) return decideAliases(identifier, exact, 'exact');
  if (alias.length < MIN_PREFIX_CHARS)
    return { identifier, resolved: null, candidates: [], ambiguous: false, basis: 'unresolved' };
  const prefix = await store.aliases.findByPrefix(guildId, alias, MAX_MATCHES);
  return decideAliases(identifier, prefix, 'prefix');
}

/** Builds the identity service (identity.* of the facade). Invalid input throws SCHEMA_INVALID. */
export function createIdentityService(deps: IdentityDeps): IdentityService {
  const { store, clock } = deps;

  const register = async (input: RegisterAliasInput): Promise<boolean> => {
    const q = parseInput(registerSchema, input, 'identity.registerAlias');
    const alias = normalizeAlias(q.alias);
    if (!isValidAlias(alias) || looksLikeSnowflake(alias) || deps.isBot(q.userId)) return false;
    // Nothing new is stored about a member who opted out (renames included).
    if (await store.consent.isOptedOut(q.guildId, q.userId)) return false;
    await store.aliases.upsert({
      guildId: q.guildId,
      alias,
      userId: q.userId,
      source: q.source,
      weight: q.weight ?? aliasWeight(q.source, alias),
      updatedAt: clock.now(),
    });
    try {
      await reconcileTwins(store, q.guildId, alias, (u) => deps.isBot(u));
    } catch (error) {
      deps.logger?.({ level: 'warn', event: 'identity.twins_failed', data: { guildId: q.guildId }, error });
    }
    return true;
  };

  return {
    async resolve(input) {
      const q = parseInput(resolveSchema, input, 'identity.resolve');
      return resolveIdentifier(store, q.guildId, q.identifier);
    },
    async resolveMany(input) {
      const q = parseInput(resolveManySchema, input, 'identity.resolveMany');
      return Promise.all(q.identifiers.map((i) => resolveIdentifier(store, q.guildId, i)));
    },
    registerAlias: register,
    async handleMemberRename(input) {
      const q = parseInput(renameSchema, input, 'identity.handleMemberRename');
      const alias = normalizeAlias(q.displayName);
      const existing = await store.aliases.aliasesOf(q.guildId, q.userId);
      const weight = aliasSourceRank.display_name.weight;
      if (existing.some((a) => a.alias === alias && a.weight >= weight)) return false;
      return register({
        guildId: q.guildId,
        userId: q.userId,
        alias: q.displayName,
        source: AliasSource.DISPLAY_NAME,
      });
    },
    async aliasesOf(input) {
      const q = parseInput(userSchema, input, 'identity.aliasesOf');
      return (await store.aliases.aliasesOf(q.guildId, q.userId)).sort(compareAliases);
    },
    async displayName(input) {
      const q = parseInput(userSchema, input, 'identity.displayName');
      const [best] = (await store.aliases.aliasesOf(q.guildId, q.userId)).sort(compareAliases);
      return best?.alias ?? null;
    },
    async reconcileTwins(input) {
      const q = parseInput(twinsSchema, input, 'identity.reconcileTwins');
      return reconcileTwins(store, q.guildId, normalizeAlias(q.alias), (u) => deps.isBot(u));
    },
  };
}

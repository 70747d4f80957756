import type { Alias } from '../../model/graph.js';
import { AliasStoreBase } from '../../ports/port-bases.js';
import { enter, key, type MemoryState } from './state.js';

const byWeight = (a: Alias, b: Alias) => b.weight - a.weight || (a.userId < b.userId ? -1 : 1);

export class InMemoryAliasStore extends AliasStoreBase {
  readonly #state: MemoryState;

  constructor(state: MemoryState) {
    super();
    this.#state = state;
  }

  override async upsert(alias: Alias): Promise<void> {
    await enter(this.#state);
    const k = key(alias.guildId, alias.alias, alias.userId);
    const current = this.#state.aliases.get(k);
    if (current && current.weight > alias.weight) {
      this.#state.aliases.set(k, { ...current, updatedAt: alias.updatedAt });
    } else {
      this.#state.aliases.set(k, alias);
    }
  }

  override async find(guildId: string, alias: string, limit: number): Promise<Alias[]> {
    await enter(this.#state);
    return this.#select((a) => a.guildId === guildId && a.alias === alias, limit);
  }

  override async findMany(
    guildId: string,
    aliases: readonly string[],
    limitPerAlias: number,
  ): Promise<Map<string, Alias[]>> {
    await enter(this.#state);
    const wanted = new Set(aliases);
    const out = new Map<string, Alias[]>();
    for (const a of this.#state.aliases.values()) {
      if (a.guildId !== guildId || !wanted.has(a.alias)) continue;
      const list = out.get(a.alias);
      if (list) list.push(a);
      else out.set(a.alias, [a]);
    }
    for (const [alias, list] of out) out.set(alias, list.sort(byWeight).slice(0, limitPerAlias));
    return out;
  }

  override async findByPrefix(guildId: string, prefix: string, limit: number): Promise<Alias[]> {
    await enter(this.#state);
    return this.#select((a) => a.guildId === guildId && a.alias.startsWith(prefix), limit);
  }

  override async aliasesOf(guildId: string, userId: string): Promise<Alias[]> {
    await enter(this.#state);
    return this.#select((a) => a.guildId === guildId && a.userId === userId, Number.POSITIVE_INFINITY);
  }

  #select(pred: (a: Alias) => boolean, limit: number): Alias[] {
    const out: Alias[] = [];
    for (const a of this.#state.aliases.values()) if (pred(a)) out.push(a);
    return out.sort(byWeight).slice(0, limit);
  }
}

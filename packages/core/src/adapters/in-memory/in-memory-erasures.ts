import type { Erasure, ErasureInput } from '../../ports/erasure-log.js';
import { enter, key, type MemoryState } from './state.js';

/** The erasure log of the in-memory backend (see GovernanceStore.recordErasure). */
export class InMemoryErasureLog {
  readonly #state: MemoryState;

  constructor(state: MemoryState) {
    this.#state = state;
  }

  async record(input: ErasureInput): Promise<number> {
    await enter(this.#state);
    const generation = (this.#state.erasureGenerations.get(input.guildId) ?? 0) + 1;
    this.#state.erasureGenerations.set(input.guildId, generation);
    this.#state.erasures.set(key(input.guildId, String(generation)), {
      guildId: input.guildId,
      generation,
      userId: input.userId,
      messageId: input.messageId,
      at: input.at,
    });
    return generation;
  }

  async since(guildId: string, generation: number): Promise<{ generation: number; erasures: Erasure[] }> {
    await enter(this.#state);
    const erasures: Erasure[] = [];
    for (const e of this.#state.erasures.values())
      if (e.guildId === guildId && e.generation > generation) {
        const { guildId: _g, ...rest } = e;
        erasures.push(rest);
      }
    erasures.sort((a, b) => a.generation - b.generation);
    return { generation: this.#state.erasureGenerations.get(guildId) ?? 0, erasures };
  }

  async prune(before: Date): Promise<number> {
    await enter(this.#state);
    let n = 0;
    for (const [k, e] of [...this.#state.erasures.entries()])
      if (e.at.getTime() < before.getTime()) {
        this.#state.erasures.delete(k);
        n++;
      }
    return n;
  }
}

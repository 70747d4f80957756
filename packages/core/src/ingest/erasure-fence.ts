import type { Fact, SourceRef } from '../model/fact.js';
import type { StoredMessage } from '../model/message.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { Candidate } from './candidate.js';
import type { Action } from './reconcile-actions.js';

/** What was erased in a guild since a fence opened. */
export interface Erased {
  readonly generation: number;
  readonly users: ReadonlySet<string>;
  readonly messages: ReadonlySet<string>;
}

const NOTHING: Erased = { generation: 0, users: new Set(), messages: new Set() };

/**
 * Purge fencing. A batch opens a fence (reads the guild's erasure generation) before it claims
 * or reads messages; every write it makes later checks the erasures recorded since, inside the
 * commit transaction, and drops whatever they cover. Work that was in flight while a member was
 * purged or a message forgotten therefore cannot write the erased data back.
 */
export class ErasureFence {
  readonly #store: MemoryStore;
  readonly #guildId: string;
  readonly #opened: number;

  private constructor(store: MemoryStore, guildId: string, opened: number) {
    this.#store = store;
    this.#guildId = guildId;
    this.#opened = opened;
  }

  static async open(store: MemoryStore, guildId: string): Promise<ErasureFence> {
    const { generation } = await store.erasures.erasuresSince(guildId, Number.MAX_SAFE_INTEGER);
    return new ErasureFence(store, guildId, generation);
  }

  get guildId(): string {
    return this.#guildId;
  }

  /** Erasures recorded since the fence opened (read now: call it inside the commit transaction). */
  async check(): Promise<Erased> {
    const { generation, erasures } = await this.#store.erasures.erasuresSince(this.#guildId, this.#opened);
    if (generation === this.#opened) return { ...NOTHING, generation };
    const users = new Set<string>();
    const messages = new Set<string>();
    for (const e of erasures) {
      if (e.userId !== null) users.add(e.userId);
      if (e.messageId !== null) messages.add(e.messageId);
    }
    return { generation, users, messages };
  }
}

export const nothingErased = (e: Erased): boolean => e.users.size === 0 && e.messages.size === 0;

/** True when a stored message is covered by the erasures (erased itself, or its author purged). */
export function messageErased(m: Pick<StoredMessage, 'messageId' | 'authorId'>, e: Erased): boolean {
  return e.messages.has(m.messageId) || e.users.has(m.authorId);
}

const sourceErased = (s: SourceRef, e: Erased) => e.messages.has(s.messageId) || e.users.has(s.authorId);

function factTouches(f: Pick<Fact, 'subjectId' | 'attribution'>, e: Erased): boolean {
  return (
    (f.subjectId !== null && e.users.has(f.subjectId)) ||
    (f.attribution.speakerId !== null && e.users.has(f.attribution.speakerId))
  );
}

function candidateTouches(c: Candidate, e: Erased): boolean {
  if (c.subjectId !== null && e.users.has(c.subjectId)) return true;
  if (c.speakerId !== null && e.users.has(c.speakerId)) return true;
  if (c.relatedUserIds.some((u) => e.users.has(u))) return true;
  return c.relations.some(
    (r) =>
      (r.from.kind === 'user' && e.users.has(r.from.userId)) ||
      (r.to.kind === 'user' && e.users.has(r.to.userId)),
  );
}

/**
 * The actions that may still commit: those about, by or linking an erased member are dropped, and
 * sources from erased messages are removed (an action whose every source was erased is dropped).
 */
export function fenceActions(actions: readonly Action[], e: Erased): Action[] {
  if (nothingErased(e)) return [...actions];
  const kept: Action[] = [];
  for (const a of actions) {
    if (candidateTouches(a.candidate, e)) continue;
    if (a.kind !== 'add' && factTouches(a.target, e)) continue;
    const sources = a.candidate.sources.filter((s) => !sourceErased(s, e));
    if (a.candidate.sources.length > 0 && sources.length === 0) continue;
    kept.push(
      sources.length === a.candidate.sources.length ? a : { ...a, candidate: { ...a.candidate, sources } },
    );
  }
  return kept;
}

import { type AccessDeps, resolveVisibility, type Visibility } from '../access/visibility.js';
import { entityNode, userNode } from '../graph/identity-collapse.js';
import type { Audience } from '../model/audience.js';
import type { Fact } from '../model/fact.js';
import { type Entity, type Link, type NodeRef, nodeKey } from '../model/graph.js';
import type { Embedder } from '../ports/embedder.js';
import type { FactValidity } from '../ports/fact-store.js';
import type { GraphStore, LinksForNodesOptions } from '../ports/graph-store.js';
import type { MemoryStore } from '../ports/memory-store.js';

const validityKey = (v: FactValidity | undefined): string =>
  v === undefined ? 'active' : typeof v === 'string' ? v : `asOf:${v.asOf.getTime()}`;

/** The links read for one node: up to `limit`, all of them when `complete`. */
interface NodeLinks {
  readonly limit: number;
  complete: boolean;
  readonly links: Promise<readonly Link[]>;
}

/** The map of `outer` under `key`, created empty on first use. */
function inner<V>(outer: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let m = outer.get(key);
  if (!m) {
    m = new Map();
    outer.set(key, m);
  }
  return m;
}

/**
 * Keeps a promise's rejection from being reported as unhandled (a read started now and awaited
 * later, or never); its awaiters still see it.
 */
export function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {});
  return p;
}

/**
 * Reads shared by the recalls of one request. promptContext runs two recalls over the same guild
 * and text (the people in the conversation, then the server): through one session they make one
 * opt-out read, one query embedding, one name resolution, and share the twin, link and fact reads
 * they have in common. Reconcile uses one the same way for a batch's candidates (their opt-out
 * read, the neighbours they share). Reads are batched per call (missing keys in one store call)
 * and memoized for the life of the session only, so a new request always sees current data.
 */
export class RecallSession {
  readonly #store: MemoryStore;
  readonly #embedder: Embedder;
  readonly #optedOut = new Map<string, Promise<ReadonlySet<string>>>();
  readonly #embeddings = new Map<string, Promise<Float32Array>>();
  readonly #memo = new Map<string, Promise<unknown>>();
  readonly #twins = new Map<string, Promise<readonly Entity[]>>();
  readonly #links = new Map<string, NodeLinks>();
  /** Facts read so far, per guild (null: no such fact). */
  readonly #facts = new Map<string, Map<string, Fact | null>>();
  /** The read that will settle a fact not in #facts yet, per guild. */
  readonly #factReads = new Map<string, Map<string, Promise<void>>>();

  constructor(store: MemoryStore, embedder: Embedder) {
    this.#store = store;
    this.#embedder = embedder;
  }

  /** Members of the guild who opted out (one read per session). */
  optedOut(guildId: string): Promise<ReadonlySet<string>> {
    let p = this.#optedOut.get(guildId);
    if (!p) {
      p = quiet(this.#store.consent.optedOutUsers(guildId).then((ids) => new Set(ids)));
      this.#optedOut.set(guildId, p);
    }
    return p;
  }

  /** What the audience may see (the policy is asked once per guild and audience per session). */
  visibility(access: AccessDeps, guildId: string, audience: Audience | null): Promise<Visibility> {
    const key = `visibility\u0000${guildId}\u0000${audience ? `${audience.channelId}\u0000${audience.requesterId ?? ''}` : ''}`;
    return this.memo(key, () => resolveVisibility(access, guildId, audience));
  }

  /** The embedding of a query text (one embedder call per session). */
  embed(text: string): Promise<Float32Array> {
    let p = this.#embeddings.get(text);
    if (!p) {
      p = quiet(
        this.#embedder.embed([text]).then(([vec]) => {
          if (!vec) throw new Error('embedder returned no vector');
          return vec;
        }),
      );
      this.#embeddings.set(text, p);
    }
    return p;
  }

  /**
   * `graph`, with `relationsOf` read once per (guild, nodes in order, limit) and `getEntities` once
   * per (guild, slugs in order) in this session: the graph-hop channel's first step and the
   * section about the people together ask for the same edges of the same people, and for the same
   * entities at their ends. Callers must not change the arrays it returns.
   */
  graphOf(graph: GraphStore): GraphStore {
    const relationsOf: GraphStore['relationsOf'] = (guildId, nodes, limit) =>
      this.memo(`relations\u0000${guildId}\u0000${limit}\u0000${nodes.map(nodeKey).join('\u0001')}`, () =>
        graph.relationsOf(guildId, nodes, limit),
      );
    const getEntities: GraphStore['getEntities'] = (guildId, slugs) =>
      this.memo(`entities\u0000${guildId}\u0000${slugs.join('\u0001')}`, () =>
        graph.getEntities(guildId, slugs),
      );
    return new Proxy(graph, {
      get(target, name, receiver) {
        if (name === 'relationsOf') return relationsOf;
        if (name === 'getEntities') return getEntities;
        const value = Reflect.get(target, name, receiver) as unknown;
        return typeof value === 'function'
          ? (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args)
          : value;
      },
    });
  }

  /** The result of `fn` under `key`, computed once per session. */
  memo<T>(key: string, fn: () => Promise<T>): Promise<T> {
    let p = this.#memo.get(key) as Promise<T> | undefined;
    if (!p) {
      p = quiet(fn());
      this.#memo.set(key, p);
    }
    return p;
  }

  /**
   * The user node of each member plus every entity linked to one of them (their twins), as
   * `nodesOfUsers` reads them; `owners` maps twin slug → member. Unknown members are read in one call.
   */
  async nodesOfUsers(
    guildId: string,
    userIds: readonly string[],
  ): Promise<{ readonly nodes: NodeRef[]; readonly owners: Map<string, string> }> {
    const unique = [...new Set(userIds)];
    const missing = unique.filter((u) => !this.#twins.has(`${guildId}\u0000${u}`));
    if (missing.length > 0) {
      const read = quiet(this.#store.graph.entitiesLinkedTo(guildId, missing));
      for (const u of missing)
        this.#twins.set(
          `${guildId}\u0000${u}`,
          quiet(read.then((entities) => entities.filter((e) => e.linkedUserId === u))),
        );
    }
    const twins = await Promise.all(unique.map((u) => this.#twins.get(`${guildId}\u0000${u}`)));
    const nodes: NodeRef[] = unique.map(userNode);
    const owners = new Map<string, string>();
    for (const list of twins)
      for (const e of list ?? []) {
        if (e.linkedUserId === null || owners.has(e.slug)) continue;
        owners.set(e.slug, e.linkedUserId);
        nodes.push(entityNode(e.slug));
      }
    return { nodes, owners };
  }

  /**
   * `graph.linksForNodes`, per node. A node already read with at least this limit (or read in full:
   * fewer links than its limit) is not read again, since links come newest fact first and a longer
   * read begins with the shorter one. Nodes not yet read are read in one call with at least
   * `readAhead` links each, when the caller knows a later channel will want more of the same nodes.
   */
  async linksForNodes(
    guildId: string,
    nodes: readonly NodeRef[],
    options: LinksForNodesOptions,
    readAhead = options.limitPerNode,
  ): Promise<Link[]> {
    const limit = Math.max(0, Math.floor(options.limitPerNode));
    const prefix = `${guildId}\u0000${validityKey(options.validity)}\u0000`;
    const missing: NodeRef[] = [];
    const keys: string[] = [];
    for (const n of nodes) {
      const k = nodeKey(n);
      if (keys.includes(k)) continue;
      keys.push(k);
      const cached = this.#links.get(prefix + k);
      if (!cached || (cached.limit < limit && !cached.complete)) missing.push(n);
    }
    if (missing.length > 0) {
      const readLimit = Math.max(limit, Math.floor(readAhead));
      const read = quiet(
        this.#store.graph
          .linksForNodes(guildId, missing, { ...options, limitPerNode: readLimit })
          .then((links) => {
            const byNode = new Map<string, Link[]>();
            for (const l of links) {
              const k = nodeKey({ type: l.nodeType, id: l.nodeId });
              const list = byNode.get(k);
              if (list) list.push(l);
              else byNode.set(k, [l]);
            }
            return byNode;
          }),
      );
      for (const n of missing) {
        const k = nodeKey(n);
        const entry: NodeLinks = {
          limit: readLimit,
          complete: false,
          links: read.then((m) => m.get(k) ?? []),
        };
        entry.links.then(
          (list) => {
            entry.complete = list.length < readLimit;
          },
          () => {},
        );
        this.#links.set(prefix + k, entry);
      }
    }
    // In node order, as the store answers.
    const lists = await Promise.all(keys.map((k) => (this.#links.get(prefix + k) as NodeLinks).links));
    return lists.flatMap((list) => (list.length > limit ? list.slice(0, limit) : list));
  }

  /** Facts by id in request order (unknown ids dropped); ids not yet read come in one call. */
  async facts(guildId: string, ids: readonly string[]): Promise<Fact[]> {
    const known = inner(this.#facts, guildId);
    const reads = inner(this.#factReads, guildId);
    const missing = [...new Set(ids)].filter((id) => !known.has(id) && !reads.has(id));
    if (missing.length > 0) {
      const read = quiet(
        this.#store.facts.get(guildId, missing).then((facts) => {
          for (const f of facts) known.set(f.id, f);
          for (const id of missing) if (!known.has(id)) known.set(id, null);
        }),
      );
      for (const id of missing) reads.set(id, read);
    }
    const waits = new Set<Promise<void>>();
    for (const id of ids) {
      const pending = known.has(id) ? undefined : reads.get(id);
      if (pending) waits.add(pending);
    }
    if (waits.size > 0) await Promise.all(waits);
    const out: Fact[] = [];
    for (const id of ids) {
      const f = known.get(id);
      if (f) out.push(f);
    }
    return out;
  }

  /** Facts a channel already read (so another recall of the session does not read them again). */
  remember(facts: Iterable<Fact>): void {
    for (const f of facts) {
      const known = inner(this.#facts, f.guildId);
      if (!known.get(f.id)) known.set(f.id, f);
    }
  }
}

import { createMemory, type Memory } from '@permafrost/core';

export const GUILD = '300000000000000001';
export const PEOPLE = {
  ana: '310000000000000001',
  ben: '310000000000000002',
  cleo: '310000000000000003',
  dev: '310000000000000004',
  eli: '310000000000000005',
} as const;
type Person = keyof typeof PEOPLE;

interface Seed {
  readonly who: Person;
  readonly text: string;
  readonly relations: readonly { verb: string; toEntity?: string; toUser?: Person }[];
}

/** What each member is known for: manual facts with typed relations (what an extractor would find). */
const SEEDS: readonly Seed[] = [
  {
    who: 'ana',
    text: 'Ana loves chess and plays every evening',
    relations: [{ verb: 'loves', toEntity: 'chess' }],
  },
  {
    who: 'ana',
    text: 'Ana drinks black coffee every morning',
    relations: [{ verb: 'likes', toEntity: 'coffee' }],
  },
  {
    who: 'ana',
    text: 'Ana is friends with Ben from university',
    relations: [{ verb: 'friends_with', toUser: 'ben' }],
  },
  { who: 'ben', text: 'Ben plays chess competitively', relations: [{ verb: 'loves', toEntity: 'chess' }] },
  { who: 'ben', text: 'Ben cannot stand coffee', relations: [{ verb: 'hates', toEntity: 'coffee' }] },
  {
    who: 'ben',
    text: 'Ben collaborates with Cleo on a Rust project',
    relations: [{ verb: 'collaborates_with', toUser: 'cleo' }],
  },
  { who: 'cleo', text: 'Cleo writes Rust for a living', relations: [{ verb: 'loves', toEntity: 'rust' }] },
  {
    who: 'cleo',
    text: 'Cleo likes coffee with oat milk',
    relations: [{ verb: 'likes', toEntity: 'coffee' }],
  },
  { who: 'cleo', text: 'Cleo plays chess on weekends', relations: [{ verb: 'likes', toEntity: 'chess' }] },
  {
    who: 'dev',
    text: 'Dev loves Rust and writes compilers',
    relations: [{ verb: 'loves', toEntity: 'rust' }],
  },
  {
    who: 'dev',
    text: 'Dev argues with Ben about tabs versus spaces',
    relations: [{ verb: 'argues_with', toUser: 'ben' }],
  },
  {
    who: 'eli',
    text: 'Eli likes coffee and chess',
    relations: [
      { verb: 'likes', toEntity: 'coffee' },
      { verb: 'likes', toEntity: 'chess' },
    ],
  },
];

/** Seeds the scripted guild into a memory (in-memory store unless configured otherwise). */
export async function seedGuild(memory: Memory): Promise<void> {
  await memory.ops.backfillAliases({
    guildId: GUILD,
    members: Object.entries(PEOPLE).map(([name, userId]) => ({
      userId,
      username: name,
      displayName: name[0]?.toUpperCase() + name.slice(1),
    })),
  });
  for (const s of SEEDS) {
    await memory.facts.remember({
      guildId: GUILD,
      subjectId: PEOPLE[s.who],
      text: s.text,
      relations: s.relations.map((r) =>
        r.toUser
          ? { verb: r.verb, toUserId: PEOPLE[r.toUser] }
          : { verb: r.verb, toEntity: r.toEntity as string },
      ),
    });
  }
}

const nameOf = (id: string) => Object.entries(PEOPLE).find(([, v]) => v === id)?.[0] ?? id;

/** Runs every graph query and returns printable lines. */
export async function relationshipTour(memory: Memory): Promise<string[]> {
  const out: string[] = [];
  const g = { guildId: GUILD };
  const who = await memory.identity.resolve({ ...g, identifier: 'Cleo' });
  out.push(`identity: "Cleo" → ${nameOf(who.resolved ?? '?')} (${who.candidates.length} candidate(s))`);
  const between = await memory.graph.between({ ...g, a: PEOPLE.ana, b: PEOPLE.ben });
  out.push(
    `ana ↔ ben: ${between.map((e) => `${nameOf(e.src.id)} ${e.verb} ${nameOf(e.dst.id)}`).join('; ')}`,
  );
  const shared = await memory.graph.shared({ ...g, a: PEOPLE.ana, b: PEOPLE.ben });
  out.push(
    `ana and ben both relate to: ${shared.map((s) => `${s.slug} (${s.edges.map((e) => e[0]?.verb ?? '?').join(' / ')})`).join(', ')}`,
  );
  const sharedAll = await memory.graph.sharedN({ ...g, userIds: [PEOPLE.ana, PEOPLE.cleo, PEOPLE.eli] });
  out.push(`ana, cleo and eli all relate to: ${sharedAll.map((s) => s.slug).join(', ')}`);
  const stances = await memory.graph.entityStances({ ...g, entity: 'coffee' });
  out.push(
    `coffee: for ${stances.positive.map((e) => nameOf(e.src.id)).join(', ')}; against ${stances.negative.map((e) => nameOf(e.src.id)).join(', ')}`,
  );
  const fans = await memory.graph.usersForEntity({ ...g, entity: 'rust' });
  out.push(`who likes rust: ${fans.positive.map(nameOf).join(', ')}`);
  const similar = await memory.graph.similarUsers({ ...g, userId: PEOPLE.ana });
  out.push(`most like ana: ${similar.map((s) => `${nameOf(s.userId)} ${s.score.toFixed(2)}`).join(', ')}`);
  const hood = await memory.graph.neighbors({ ...g, userId: PEOPLE.cleo, depth: 2 });
  out.push(
    `within two hops of cleo: ${hood.map((n) => `${n.node.type === 'user' ? nameOf(n.node.id) : n.node.id} via ${n.verbs.join('→')}`).join('; ')}`,
  );
  const pair = await memory.recall({
    ...g,
    text: 'what do ana and ben have in common?',
    scope: 'subjects',
    subjectIds: [PEOPLE.ana, PEOPLE.ben],
    pairIds: [[PEOPLE.ana, PEOPLE.ben]],
  });
  out.push(`recall for the pair: ${pair.facts.map((f) => f.fact.text).join(' | ')}`);
  return out;
}

export function createDemoMemory(): Memory {
  return createMemory({ storage: 'memory', llm: null, workers: { enabled: false } });
}

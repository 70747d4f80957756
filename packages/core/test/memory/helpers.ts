import {
  createMemory,
  type MemoryConfigInput,
  type MemoryOverrides,
  type MemoryStore,
  type MessageEventInput,
} from '../../src/index.js';
import { createScriptedLlm, FixedClock, type ScriptedLlm, sequentialIds } from '../../src/testing/index.js';

export const ALICE = '111111111111111111';
export const BOB = '222222222222222222';
export const CAROL = '333333333333333333';
export const BOT = '999999999999999999';
export const GUILD = '500000000000000001';
export const CHANNEL = '600000000000000001';

export interface Harness {
  memory: ReturnType<typeof createMemory>;
  llm: ScriptedLlm;
  clock: FixedClock;
  say(authorId: string, content: string, extra?: Partial<MessageEventInput>): Promise<string>;
}

const names: Record<string, string> = {
  [ALICE]: 'Alice',
  [BOB]: 'Bob',
  [CAROL]: 'Carol',
  [BOT]: 'Memorybot',
};

/** A memory on the in-memory store with a scripted model, a fixed clock and workers off. */
export function harness(config: MemoryConfigInput = {}, overrides: MemoryOverrides = {}): Harness {
  const clock = new FixedClock('2026-08-24T12:00:00.000Z');
  const llm = createScriptedLlm();
  const memory = createMemory(
    {
      storage: 'memory',
      workers: { enabled: false },
      batching: { batchSizeMessages: 3 },
      access: { requireAudience: false },
      ...config,
    },
    { llm, clock, idGen: sequentialIds(), ...overrides },
  );
  let n = 0;
  return {
    memory,
    llm,
    clock,
    async say(authorId, content, extra = {}) {
      const messageId = `7000000000000${String(++n).padStart(5, '0')}`;
      clock.advanceSeconds(1);
      await memory.observe({
        messageId,
        guildId: GUILD,
        channelId: CHANNEL,
        authorId,
        content,
        createdAt: clock.now(),
        authorUsername: (names[authorId] ?? 'someone').toLowerCase(),
        authorDisplayName: names[authorId] ?? 'Someone',
        ...extra,
      });
      return messageId;
    },
  };
}

/** One extraction operation as the model would return it. */
export function op(o: {
  subject?: string;
  speaker?: string | null;
  text: string;
  category?: string;
  confidence?: number;
  sources?: number[];
  entities?: { name: string; kind: string }[];
  relations?: {
    verb: string;
    fromToken: string | null;
    toToken: string | null;
    fromEntity: string | null;
    toEntity: string | null;
  }[];
}) {
  return {
    subjectToken: o.subject ?? 'p0',
    speakerToken: o.speaker ?? null,
    text: o.text,
    category: o.category ?? 'interests',
    confidence: o.confidence ?? 0.9,
    sourceMessageIndexes: o.sources ?? [1],
    entities: o.entities ?? [],
    relations: o.relations ?? [],
  };
}

export const ops = (...operations: ReturnType<typeof op>[]) => JSON.stringify({ operations });

/** Every fact stored about a member, retired ones included (what a purge must leave empty). */
export async function storedFactsAbout(store: Pick<MemoryStore, 'facts'>, userId: string) {
  return (await store.facts.list({ guildId: GUILD, subjectIds: [userId], validity: 'any', limit: 10 })).items;
}

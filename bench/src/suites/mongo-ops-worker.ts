/**
 * Child process of the recall suite: what `observe` and an extraction commit send to a MongoDB
 * server: commands counted by the driver's command monitoring, round trips by the clock proxy the
 * client goes through (harness/command-monitor.ts, harness/round-trip-clock.ts).
 *
 *   node mongo-ops-worker.js --location=mongodb://127.0.0.1:27017/db --messages=90
 *
 * Messages from three members go through `observe` (workers off); then each member's batch is
 * extracted by a scripted OpenAI-compatible server on loopback HTTP that answers one fact per
 * message line. An extraction commit is everything sent between the model's answer and the
 * batch's `BatchCompleted` event (facts, vectors, links, history, queue completion, lease release).
 * Prints one JSON line.
 */
import { createMemory, type MessageEventInput } from '@permafrost/core';
import {
  type RecordedOpenAiRequest,
  readExtractionPrompt,
  startScriptedOpenAiServer,
} from '@permafrost/core/testing';
import { createMongoStore } from '@permafrost/store-mongo';
import { MongoClient } from 'mongodb';
import { chatLine, GAMES, makeMembers, PET_NAMES, PLACES, TOPICS } from '../community.js';
import { replyAsJsonChild } from '../harness/child.js';
import {
  type CommandCount,
  CommandMonitor,
  commandStats,
  countOperation,
} from '../harness/command-monitor.js';
import { parseArgs } from '../harness/env.js';
import { startRoundTripClock } from '../harness/round-trip-clock.js';
import { GUILD } from '../harness/seed.js';
import { stubExtractionConfig } from '../harness/stub-llm.js';
import { prng } from '../stats.js';

const args = parseArgs(process.argv.slice(2));
const location = args.get('location') ?? '';
const perMember = Math.max(1, Math.round(Number(args.get('messages') ?? 30) / 3));
const CHANNEL = '1200000000000000002';

/** Entity kinds of the community's vocabulary, as a model would label them. */
const VOCABULARY: readonly (readonly [string, 'activity' | 'product' | 'place' | 'concept'])[] = [
  ...TOPICS.map((t) => [t, 'activity'] as const),
  ...GAMES.map((g) => [g, 'product'] as const),
  ...PLACES.map((p) => [p, 'place'] as const),
  ...PET_NAMES.map((n) => [n, 'concept'] as const),
];

/**
 * What a model names in a line: the topics, games, places and pets it mentions, and a member it
 * @-mentions (a person, with a relation from the author), so that commits resolve names and write
 * entities, relations and links as they do for real extractions.
 */
function namedIn(content: string, author: string) {
  const lower = content.toLowerCase();
  const entities: { name: string; kind: string }[] = VOCABULARY.filter(([name]) =>
    lower.includes(name.toLowerCase()),
  ).map(([name, kind]) => ({ name, kind }));
  const relations: Record<string, string | null>[] = [];
  const mention = /@(\S+)/.exec(content)?.[1];
  if (mention) {
    entities.push({ name: mention, kind: 'person' });
    relations.push({ verb: 'asked', fromToken: author, toToken: null, fromEntity: null, toEntity: mention });
  }
  return { entities, relations };
}

/**
 * What a model answers reconcile with: every other candidate that collides with stored facts
 * updates the first of them (the stored fact is superseded by a merged one), the rest say the same
 * thing again (the fact is reinforced), so that commits retire facts as they do for real.
 */
function reconcileReply(prompt: string) {
  const blocks = prompt
    .split(/^CANDIDATE /m)
    .slice(1)
    .map((block) => ({
      candidateIndex: Number(/^(\d+) /.exec(block)?.[1]),
      text: /\): (.*)$/m.exec(block)?.[1] ?? 'a fact',
      ids: [...block.matchAll(/^- \[([^\]]+)\]/gm)].map((m) => m[1] as string),
    }));
  // A model merges a refinement into one memory (each stored fact updated at most once), and a
  // repetition names a memory nothing else in the batch changes where there is one.
  const updates = new Map<number, string>();
  for (const b of blocks) {
    const free = b.ids.find((id) => ![...updates.values()].includes(id));
    if (b.candidateIndex % 2 === 0 && free !== undefined) updates.set(b.candidateIndex, free);
  }
  const updated = new Set(updates.values());
  const decisions = blocks.map((b) => {
    const target = updates.get(b.candidateIndex);
    return target
      ? {
          candidateIndex: b.candidateIndex,
          kind: 'UPDATE',
          targetId: target,
          text: `Updated: ${b.text}`,
          reason: 'refines it',
        }
      : {
          candidateIndex: b.candidateIndex,
          kind: 'NOOP',
          targetId: b.ids.find((id) => !updated.has(id)) ?? b.ids[0] ?? null,
          text: null,
          reason: 'same',
        };
  });
  return { decisions };
}

async function main(): Promise<unknown> {
  const clock = await startRoundTripClock(location);
  const client = new MongoClient(clock.url, { monitorCommands: true, serverSelectionTimeoutMS: 5_000 });
  const monitor = new CommandMonitor(client);
  const store = createMongoStore({ client, url: clock.url });
  const extractionReply = (req: RecordedOpenAiRequest) => {
    if (/^CANDIDATE \d+ /m.test(req.text)) return { json: reconcileReply(req.text) };
    const prompt = readExtractionPrompt(req.text);
    if (prompt.scope !== 'member' || prompt.author === null) return { json: { operations: [] } };
    clock.begin();
    monitor.begin();
    return {
      json: {
        operations: prompt.lines
          .filter((l) => l.token === prompt.author)
          .map((l) => ({
            subjectToken: prompt.author,
            speakerToken: null,
            text: `${l.name} talks about ${l.content.split(/\s+/).slice(0, 4).join(' ')}.`,
            category: 'interests',
            confidence: 0.8,
            sourceMessageIndexes: [l.index],
            ...namedIn(l.content, prompt.author as string),
          })),
      },
    };
  };
  const server = await startScriptedOpenAiServer({ handler: extractionReply });
  const memory = createMemory(stubExtractionConfig(location, server.url), { store });
  const commits: CommandCount[] = [];
  let factsCommitted = 0;
  let factsReinforced = 0;
  let factsSuperseded = 0;
  memory.events.on('BatchCompleted', (b) => {
    if (!monitor.active || b.llmCalls === 0) return;
    commits.push({ ...monitor.end(), roundTrips: clock.end().roundTrips });
    factsCommitted += b.adds;
    factsReinforced += b.reinforces;
    factsSuperseded += b.supersessions;
  });
  try {
    await store.setup();
    const members = makeMembers(3);
    const rand = prng(17);
    const base = Date.now() - 3_600_000;
    const observes: CommandCount[] = [];
    let n = 0;
    const chat = (m: (typeof members)[number], content: string): MessageEventInput => {
      const messageId = String(1500000000000000000n + BigInt(n++));
      return {
        messageId,
        guildId: GUILD,
        channelId: CHANNEL,
        authorId: m.id,
        authorUsername: m.username,
        authorDisplayName: m.name,
        content,
        createdAt: new Date(base + n * 1000),
      };
    };
    // Warm-up: the first observe of a member also records their names.
    for (const [i, m] of members.entries()) {
      await memory.observe(
        chat(m, chatLine(rand, members[(i + 1) % members.length] as (typeof members)[number])),
      );
    }
    for (let k = 0; k < perMember; k++)
      for (const [i, m] of members.entries()) {
        const event = chat(
          m,
          `I really enjoy ${chatLine(rand, members[(i + k) % members.length] as (typeof members)[number])}`,
        );
        observes.push((await countOperation(clock, monitor, () => memory.observe(event))).count);
      }
    await memory.flush({ guildId: GUILD });
    return {
      observe: commandStats(observes),
      extractionCommit: {
        ...commandStats(commits),
        factsPerCommit: commits.length > 0 ? factsCommitted / commits.length : 0,
        reinforcedPerCommit: commits.length > 0 ? factsReinforced / commits.length : 0,
        supersededPerCommit: commits.length > 0 ? factsSuperseded / commits.length : 0,
      },
      llmCalls: server.chatRequests.length,
    };
  } finally {
    await memory.close({ drain: false });
    await server.close();
    await client
      .db(store.dbName)
      .dropDatabase()
      .catch(() => undefined);
    await client.close();
    await clock.close();
  }
}

replyAsJsonChild(main);

import {
  createMemory,
  type LogEvent,
  type Memory,
  type MemoryConfigInput,
  type MessageEventInput,
} from '@permafrost/core';
import {
  createScriptedLlm,
  FixedClock,
  type ReadPrompt,
  readExtractionPrompt,
  type ScriptedLlm,
} from '@permafrost/core/testing';
import type { StoreInstance, StoreUnderTest } from './stores.js';
import { CHANNEL_A, GUILD_A } from './world.js';

/** A member as the platform knows them: a stable id and username, a display name they pick. */
export interface Person {
  readonly id: string;
  readonly username: string;
  readonly displayName: string;
}

export const person = (n: number, username: string, displayName = username): Person => ({
  id: `4${String(n).padStart(17, '0')}`,
  username: username.toLowerCase(),
  displayName,
});

export const ALICE = person(1, 'alice', 'Alice');
export const BOB = person(2, 'bob', 'Bob');
export const CAROL = person(3, 'carol', 'Carol');
export const MALLORY = person(4, 'mallory', 'Mallory');

/** One hostile-member scenario: a memory on one store with a scripted model, workers off. */
export interface Scene {
  readonly memory: Memory;
  readonly llm: ScriptedLlm;
  readonly logs: LogEvent[];
  /** Posts a message as `who` (optionally under another display name); returns its id. */
  say(who: Person, content: string, extra?: Partial<MessageEventInput>): Promise<string>;
  /** Extraction prompts the model received, as the model reads them. */
  prompts(): ReadPrompt[];
  close(): Promise<void>;
}

export type ExtractionScript = (prompt: ReadPrompt, text: string) => unknown[];

/**
 * Opens a scene. `extract` answers every extraction request from the prompt as a model reads it
 * (the scripted model may lie); without it the model returns no operations.
 */
export function openScene(
  store: StoreUnderTest,
  options: { extract?: ExtractionScript; config?: MemoryConfigInput; llm?: 'scripted' | 'heuristic' } = {},
): Scene {
  const instance: StoreInstance = store.open();
  const clock = new FixedClock('2026-08-24T12:00:00.000Z');
  const llm = createScriptedLlm();
  const userText = (messages: readonly { role: string; content: string }[]) =>
    messages.find((m) => m.role === 'user')?.content ?? '';
  llm.script('extraction', (request) => {
    const text = userText(request.messages);
    const operations = options.extract?.(readExtractionPrompt(text), text) ?? [];
    return JSON.stringify({ operations });
  });
  // Every reconcile candidate is distinct (ADD): the scenarios check the gates, not merging.
  llm.script('reconcile', (request) => {
    const input = request.task?.input as { collisions?: { candidateIndex: number }[] } | undefined;
    const decisions = (input?.collisions ?? []).map((c) => ({
      candidateIndex: c.candidateIndex,
      kind: 'ADD',
      targetId: null,
      text: null,
      reason: 'distinct',
    }));
    return JSON.stringify({ decisions });
  });
  const logs: LogEvent[] = [];
  const memory = createMemory(
    {
      storage: instance.storage,
      workers: { enabled: false },
      access: { requireAudience: false },
      ...(options.llm === 'heuristic' ? { llm: 'heuristic' } : {}),
      ...options.config,
    },
    {
      ...instance.overrides,
      ...(options.llm === 'heuristic' ? {} : { llm }),
      clock,
      logger: (e: LogEvent) => {
        logs.push(e);
      },
    },
  );
  let n = 0;
  return {
    memory,
    llm,
    logs,
    async say(who, content, extra = {}) {
      const messageId = `80000000000${String(++n).padStart(7, '0')}`;
      clock.advanceSeconds(5);
      const receipt = await memory.observe({
        messageId,
        guildId: GUILD_A,
        channelId: CHANNEL_A,
        authorId: who.id,
        authorUsername: who.username,
        authorDisplayName: who.displayName,
        content,
        createdAt: clock.now(),
        mentionIds: [...content.matchAll(/<@!?(\d+)>/g)].map((m) => m[1] as string),
        ...extra,
      });
      if (receipt.status === 'rejected') throw new Error(`observe rejected: ${receipt.reason}`);
      return messageId;
    },
    prompts: () => llm.callsFor('extraction').map((c) => readExtractionPrompt(userText(c.messages))),
    async close() {
      await memory.close({ drain: false });
      await instance.cleanup();
    },
  };
}

/** An extraction operation as a model writes it. */
export function fact(
  subjectToken: string,
  text: string,
  sources: number[],
  extra: { speakerToken?: string | null; confidence?: number; category?: string } = {},
) {
  return {
    subjectToken,
    speakerToken: extra.speakerToken ?? null,
    text,
    category: extra.category ?? 'personal',
    confidence: extra.confidence ?? 0.95,
    sourceMessageIndexes: sources,
    entities: [],
    relations: [],
  };
}

export const mention = (p: Person) => `<@${p.id}>`;

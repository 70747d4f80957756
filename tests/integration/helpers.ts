import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory, type Memory, type MemoryConfigInput, type MemoryOverrides } from '@permafrost/core';
import { FixedClock, sequentialIds } from '@permafrost/core/testing';
import '@permafrost/store-sqlite';

export const G1 = '500000000000000001';
export const G2 = '500000000000000002';
export const CH = '600000000000000001';
export const ALICE = '110000000000000001';
export const BOB = '110000000000000002';
export const CAROL = '110000000000000003';
export const DAVE = '110000000000000004';

/** A temp directory removed by the returned cleanup. */
export function tempDir(prefix = 'permafrost-it-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A memory on a SQLite file, workers off, no model unless given, a fixed clock. */
export function sqliteMemory(
  path: string,
  config: MemoryConfigInput = {},
  overrides: MemoryOverrides = {},
): { memory: Memory; clock: FixedClock } {
  const clock = (overrides.clock as FixedClock | undefined) ?? new FixedClock('2026-09-01T12:00:00.000Z');
  const memory = createMemory(
    { storage: `sqlite://${path}`, workers: { enabled: false }, llm: null, ...config },
    { clock, idGen: sequentialIds(), ...overrides },
  );
  return { memory, clock };
}

let n = 0;
/** Observes one message and returns its id. */
export async function say(
  memory: Memory,
  clock: FixedClock,
  guildId: string,
  authorId: string,
  name: string,
  content: string,
  mentions: string[] = [],
): Promise<string> {
  clock.advanceSeconds(30);
  const messageId = String(700000000000000000n + BigInt(++n));
  await memory.observe({
    messageId,
    guildId,
    channelId: CH,
    authorId,
    content,
    createdAt: clock.now(),
    authorDisplayName: name,
    authorUsername: name.toLowerCase(),
    mentionIds: mentions,
  });
  return messageId;
}

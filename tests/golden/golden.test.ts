import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BatchCompleted, createMemory, type Fact } from '@permafrost/core';
import { createScriptedLlm, FixedClock, sequentialIds } from '@permafrost/core/testing';
import { describe, expect, it } from 'vitest';

interface Expectation {
  subject: string | null;
  contains: string;
  speaker?: string;
  tier?: string;
  occurrences?: number;
}
interface Scenario {
  name: string;
  description: string;
  members?: Record<string, string>;
  phases: { messages: { author: string; content: string; mentions?: string[] }[]; operations: unknown[] }[];
  expected: Expectation[];
  inactive?: Expectation[];
  forbidden?: string[];
  forbidden_on?: Expectation[];
  expectedSkips?: string[];
  expectedLlmCalls?: number;
  maxFacts?: Record<string, number>;
}

const dir = join(import.meta.dirname, 'scenarios');
const scenarios: Scenario[] = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Scenario);

const GUILD = '400000000000000001';

async function play(s: Scenario) {
  const ids = new Map<string, string>();
  const idOf = (who: string) => {
    if (!ids.has(who)) ids.set(who, String(300000000000000000n + BigInt(ids.size + 1)));
    return ids.get(who) as string;
  };
  const clock = new FixedClock('2026-08-24T12:00:00.000Z');
  const llm = createScriptedLlm();
  const memory = createMemory(
    { storage: 'memory', workers: { enabled: false }, extraction: { digestEveryFacts: 0 } },
    { llm, clock, idGen: sequentialIds() },
  );
  const skips: string[] = [];
  memory.events.on('BatchCompleted', (b: BatchCompleted) => {
    if (b.skipped) skips.push(b.skipped);
  });
  let n = 0;
  let current: unknown[] = [];
  llm.script('extraction', () => JSON.stringify({ operations: current }));
  for (const phase of s.phases) {
    current = phase.operations;
    for (const m of phase.messages) {
      clock.advanceSeconds(10);
      await memory.observe({
        messageId: `m${++n}`,
        guildId: GUILD,
        channelId: 'c1',
        authorId: idOf(m.author),
        content: m.content,
        createdAt: clock.now(),
        authorUsername: m.author,
        authorDisplayName: s.members?.[m.author] ?? m.author[0]?.toUpperCase() + m.author.slice(1),
        mentionIds: (m.mentions ?? []).map(idOf),
      });
    }
    await memory.flush();
    clock.advanceDays(1);
  }
  await new Promise((r) => setTimeout(r, 0));
  const snapshot = await memory.admin.exportGuild({ guildId: GUILD });
  await memory.close();
  return { facts: snapshot.facts, skips, calls: llm.callsFor('extraction').length, idOf };
}

const matches = (f: Fact, e: Expectation, idOf: (w: string) => string) =>
  f.subjectId === (e.subject === null ? null : idOf(e.subject)) &&
  f.text.toLowerCase().includes(e.contains.toLowerCase());
const active = (f: Fact) => f.validUntil === null && f.supersededById === null;

describe('golden scenarios', () => {
  it('has the 15 scenario kinds', () => {
    expect(scenarios.map((s) => s.name)).toHaveLength(15);
  });

  for (const s of scenarios) {
    it(`${s.name}: ${s.description}`, async () => {
      const { facts, skips, calls, idOf } = await play(s);
      for (const e of s.expected) {
        const hit = facts.find((f) => active(f) && matches(f, e, idOf));
        expect(hit, `missing on ${e.subject}: ${e.contains}`).toBeDefined();
        if (e.speaker) expect(hit?.attribution.speakerId).toBe(idOf(e.speaker));
        if (e.tier) expect(hit?.tier).toBe(e.tier);
        if (e.occurrences) expect(hit?.occurrences).toBe(e.occurrences);
      }
      for (const e of s.inactive ?? []) {
        const hit = facts.find((f) => matches(f, e, idOf));
        expect(hit, `missing retired fact ${e.contains}`).toBeDefined();
        expect(hit && active(hit)).toBe(false);
      }
      for (const word of s.forbidden ?? []) {
        expect(
          facts.filter((f) => f.text.toLowerCase().includes(word.toLowerCase())),
          `forbidden "${word}" present`,
        ).toEqual([]);
      }
      for (const e of s.forbidden_on ?? [])
        expect(
          facts.filter((f) => matches(f, e, idOf)),
          `forbidden on ${e.subject}: ${e.contains}`,
        ).toEqual([]);
      for (const skip of s.expectedSkips ?? []) expect(skips, `expected skip ${skip}`).toContain(skip);
      if (s.expectedLlmCalls !== undefined) expect(calls).toBe(s.expectedLlmCalls);
      for (const [who, max] of Object.entries(s.maxFacts ?? {}))
        expect(facts.filter((f) => f.subjectId === idOf(who)).length).toBeLessThanOrEqual(max);
      if (s.expected.length === 0) expect(facts.filter(active)).toEqual([]);
    });
  }
});

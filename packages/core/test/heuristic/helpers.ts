import { expect } from 'vitest';
import { extractHeuristically, sequenceRatio } from '../../src/adapters/heuristic/index.js';
import {
  type ExtractionInput,
  type ExtractionMessage,
  extractionOutputSchema,
  type ProposedFact,
  type RosterEntry,
} from '../../src/extraction/extraction-contract.js';

export const ROSTER: readonly RosterEntry[] = [
  { token: 'p0', name: 'Alice', role: 'author' },
  { token: 'p1', name: 'Bob', role: 'mentioned' },
  { token: 'p2', name: 'Carol', role: 'participant' },
];

/** Monday 2026-08-24. */
export const BATCH_DATE = '2026-08-24';

export interface MessageSpec {
  readonly content: string;
  readonly author?: string;
  readonly mentions?: readonly string[];
  readonly replyTo?: number;
}

export function batch(
  messages: readonly (string | MessageSpec)[],
  options: { scope?: 'member' | 'community'; roster?: readonly RosterEntry[] } = {},
): ExtractionInput {
  const roster = options.roster ?? ROSTER;
  const built: ExtractionMessage[] = messages.map((m, i) => {
    const spec: MessageSpec = typeof m === 'string' ? { content: m } : m;
    const author = spec.author ?? 'p0';
    return {
      index: i + 1,
      authorToken: author,
      authorName: roster.find((r) => r.token === author)?.name ?? author,
      content: spec.content,
      mentionTokens: spec.mentions ?? [],
      replyToIndex: spec.replyTo ?? null,
    };
  });
  return {
    scope: options.scope ?? 'member',
    batchDate: BATCH_DATE,
    batchWeekday: 'Monday',
    roster,
    messages: built,
    existingFacts: [],
  };
}

const squash = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** Every operation must pass the pipeline's gates (§4 step 7) and cite its own message. */
export function assertGateSafe(input: ExtractionInput, ops: readonly ProposedFact[]): void {
  expect(() => extractionOutputSchema.parse({ operations: ops })).not.toThrow();
  const tokens = new Set(['server', ...input.roster.map((r) => r.token)]);
  for (const op of ops) {
    expect(tokens.has(op.subjectToken)).toBe(true);
    if (op.speakerToken !== null) expect(tokens.has(op.speakerToken)).toBe(true);
    expect(squash(op.text).length).toBeGreaterThanOrEqual(12);
    expect(op.text.length).toBeLessThanOrEqual(400);
    expect(op.text).not.toMatch(/\bp\d+\b|\d{15,}|<@|\?$/);
    expect(op.text).not.toMatch(/^(?:who|what|when|where|why|how)\b/i);
    expect(op.confidence).toBeGreaterThanOrEqual(0.55);
    expect(op.confidence).toBeLessThanOrEqual(1);
    expect(op.sourceMessageIndexes).toHaveLength(1);
    const cited = input.messages.find((m) => m.index === op.sourceMessageIndexes[0]);
    expect(cited).toBeDefined();
    expect(sequenceRatio(squash(op.text), squash(cited?.content ?? ''))).toBeLessThan(0.88);
    for (const r of op.relations) {
      expect(r.fromToken).toBe(op.subjectToken);
      if (r.toToken === null) expect(op.entities.some((e) => e.name === r.toEntity)).toBe(true);
      else expect(tokens.has(r.toToken) && r.toEntity === null).toBe(true);
    }
  }
}

/** Extract and check the gate invariants. */
export function run(input: ExtractionInput): ProposedFact[] {
  const { operations } = extractHeuristically(input);
  assertGateSafe(input, operations);
  return operations;
}

export interface Expected {
  readonly subject?: string;
  readonly speaker?: string | null;
  /** Case-insensitive substrings the text must contain. */
  readonly has: readonly string[];
  /** Case-insensitive substrings the text must not contain. */
  readonly not?: readonly string[];
  readonly category?: ProposedFact['category'];
  readonly maxConfidence?: number;
  readonly minConfidence?: number;
  readonly entity?: string;
  readonly verb?: string;
}

export function expectOps(ops: readonly ProposedFact[], expected: readonly Expected[]): void {
  expect(ops.map((o) => o.text)).toHaveLength(expected.length);
  expected.forEach((e, i) => {
    const op = ops[i] as ProposedFact;
    expect(op.subjectToken).toBe(e.subject ?? 'p0');
    expect(op.speakerToken).toBe(e.speaker === undefined ? null : e.speaker);
    for (const h of e.has) expect(op.text.toLowerCase()).toContain(h.toLowerCase());
    for (const n of e.not ?? []) expect(op.text.toLowerCase()).not.toContain(n.toLowerCase());
    if (e.category !== undefined) expect(op.category).toBe(e.category);
    if (e.maxConfidence !== undefined) expect(op.confidence).toBeLessThanOrEqual(e.maxConfidence);
    if (e.minConfidence !== undefined) expect(op.confidence).toBeGreaterThanOrEqual(e.minConfidence);
    if (e.entity !== undefined)
      expect(op.entities.map((x) => x.name.toLowerCase())).toContain(e.entity.toLowerCase());
    if (e.verb !== undefined) expect(op.relations.map((r) => r.verb)).toContain(e.verb);
  });
}

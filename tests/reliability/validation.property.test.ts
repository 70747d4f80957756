import { createMemory, type Memory, MemoryError } from '@permafrost/core';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ExampleWorld,
  LEAK_MARK,
  type MethodExample,
  methodExamples,
  methodOf,
  publicMethods,
  wrongValuesFor,
} from './support/method-examples.js';
import { closeStores, runsFor, type StoreInstance, selectedStores } from './support/stores.js';
import { CHANNEL_A, chat, GUILD_A, member } from './support/world.js';

afterAll(closeStores);
/**
 * Input validation (issue #18 item 9): every public method of Memory — enumerated from the object,
 * so a new method is covered (and fails here until it has an example) — rejects wrong types,
 * missing fields, unknown keys, oversized values and reserved ids with MemoryError SCHEMA_INVALID
 * and nothing else (the never-throwing reads answer `query_invalid` instead), the error never
 * echoes the input, and nothing stored changes.
 */

const ALICE = member(1);
const BOB = member(2);

type Outcome =
  | { kind: 'schema_invalid'; error: MemoryError }
  | { kind: 'warned' }
  | { kind: 'other'; detail: string };

async function outcomeOf(
  memory: Memory,
  path: string,
  example: MethodExample,
  args: unknown[],
): Promise<Outcome> {
  try {
    const result = await methodOf(memory, path)(...args);
    const warnings = (result as { warnings?: unknown } | null)?.warnings;
    if (example.warns && Array.isArray(warnings) && warnings.includes('query_invalid'))
      return { kind: 'warned' };
    return { kind: 'other', detail: 'resolved' };
  } catch (error) {
    if (MemoryError.is(error, 'SCHEMA_INVALID')) return { kind: 'schema_invalid', error };
    const code = MemoryError.is(error) ? error.code : error instanceof Error ? error.name : typeof error;
    return { kind: 'other', detail: `threw ${code}` };
  }
}

interface Mutation {
  readonly label: string;
  readonly args: unknown[];
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date) && typeof v !== 'function';

/** Every certainly-invalid variant of a valid call: wrong types, missing and unknown keys, arguments to none. */
function mutations(example: MethodExample): Mutation[] {
  const out: Mutation[] = [];
  const optional = new Set(example.optional ?? []);
  const nullable = new Set(example.nullable ?? []);
  const args = example.args;
  // A method that takes nothing takes nothing: any argument is rejected.
  if (args.length === 0)
    for (const value of [{}, { force: true }, 'x', 7, null, []])
      out.push({ label: `an argument ${show(value)}`, args: [value] });
  args.forEach((arg, i) => {
    const replace = (value: unknown) => args.map((a, j) => (j === i ? value : a));
    for (const wrong of wrongValuesFor(arg, null, false))
      out.push({ label: `argument ${i} as ${show(wrong)}`, args: replace(wrong) });
    if (!isPlainObject(arg)) return;
    if (!(example.loose ?? []).includes(i))
      out.push({ label: `argument ${i} with an unknown key`, args: replace({ ...arg, zzUnknown: 1 }) });
    for (const [key, value] of Object.entries(arg)) {
      if (!optional.has(key)) {
        const { [key]: _dropped, ...rest } = arg;
        out.push({ label: `${key} missing`, args: replace(rest) });
      }
      for (const wrong of wrongValuesFor(value, key, nullable.has(key)))
        out.push({ label: `${key} as ${show(wrong)}`, args: replace({ ...arg, [key]: wrong }) });
    }
  });
  return out;
}

function show(v: unknown): string {
  if (typeof v === 'string')
    return v.length > 100 ? `a ${v.length}-char string` : `string ${JSON.stringify(v)}`;
  if (Array.isArray(v)) return `array[${v.length}]`;
  if (v === null) return 'null';
  if (typeof v === 'number') return `number ${v}`;
  return typeof v;
}

/** What is stored, read through the public API (timestamps of the read itself removed). */
async function snapshot(memory: Memory): Promise<string> {
  const { exportedAt: _e, ...guild } = await memory.admin.exportGuild({ guildId: GUILD_A });
  const health = await memory.ops.health();
  return JSON.stringify({
    guild,
    stats: await memory.stats({ guildId: GUILD_A }),
    pending: health.pending,
    dead: health.deadLetters,
    thread: await memory.conversation.threadHistory({ guildId: GUILD_A, channelId: CHANNEL_A, limit: 1000 }),
    session: await memory.conversation.session('ses-1', { limit: 1000 }),
    modes: await memory.activeModes.list({ allInstances: true, activeWithinMinutes: 525_600 }),
    optOut: await memory.admin.getOptOut({ guildId: GUILD_A, userId: BOB.id }),
    cursor: await memory.cursors.get({ guildId: GUILD_A, key: 'example:cursor' }),
  });
}

async function seeded(instance: StoreInstance): Promise<{ memory: Memory; world: ExampleWorld }> {
  const memory = createMemory(
    { storage: instance.storage, llm: 'heuristic', workers: { enabled: false } },
    instance.overrides,
  );
  await memory.observe(chat('800000000000000001', ALICE, 'I live in Lisbon and I keep bees on my roof'));
  await memory.observe(chat('800000000000000002', BOB, 'I love climbing with Alice on weekends'));
  await memory.flush();
  const fact = await memory.facts.remember({
    guildId: GUILD_A,
    subjectId: ALICE.id,
    text: 'Alice keeps three hives',
  });
  await memory.conversation.append({ sessionId: 'ses-1', role: 'user', content: 'hello there' });
  await memory.activeModes.persist({ guildId: GUILD_A, channelId: CHANNEL_A, mode: 'chatty' });
  await memory.cursors.set({ guildId: GUILD_A, key: 'example:cursor', value: 'seeded' });
  const exportDoc = await memory.admin.exportGuild({ guildId: GUILD_A });
  return { memory, world: { alice: ALICE, bob: BOB, factId: fact.id, exportDoc } };
}

function checkRejection(path: string, label: string, outcome: Outcome, failures: string[]): void {
  if (outcome.kind === 'other') {
    failures.push(`${path} (${label}): ${outcome.detail}`);
    return;
  }
  if (outcome.kind !== 'schema_invalid') return;
  const text = `${outcome.error.message} ${JSON.stringify(outcome.error.issues)}`;
  if (text.includes(LEAK_MARK)) failures.push(`${path} (${label}): the error echoes the input`);
  if (outcome.error.issues.length === 0) failures.push(`${path} (${label}): no issue listed`);
}

describe.each(selectedStores())('every public method validates its input ($name)', (store) => {
  it('every method has an example, and every example is a valid call', async () => {
    const instance = store.open();
    const { memory, world } = await seeded(instance);
    try {
      const examples = methodExamples(world);
      const methods = publicMethods(memory);
      expect(methods.length).toBeGreaterThan(60);
      expect(methods.filter((m) => !(m in examples))).toEqual([]);
      expect(Object.keys(examples).filter((m) => !methods.includes(m))).toEqual([]);
      const invalid: string[] = [];
      // `close` last: it ends the instance.
      for (const path of [...methods.filter((m) => m !== 'close'), 'close']) {
        const example = examples[path] as MethodExample;
        const outcome = await outcomeOf(memory, path, example, [...example.args]);
        if (outcome.kind === 'schema_invalid' || outcome.kind === 'warned') invalid.push(path);
      }
      expect(invalid).toEqual([]);
    } finally {
      await memory.close();
      await instance.cleanup();
    }
  }, 120_000);

  it('wrong types, missing and unknown keys, oversized values and reserved ids: SCHEMA_INVALID only, nothing stored changes', async () => {
    const instance = store.open();
    const { memory, world } = await seeded(instance);
    try {
      const examples = methodExamples(world);
      const before = await snapshot(memory);
      const failures: string[] = [];
      let calls = 0;
      for (const path of publicMethods(memory)) {
        const example = examples[path] as MethodExample;
        for (const m of mutations(example)) {
          checkRejection(path, m.label, await outcomeOf(memory, path, example, m.args), failures);
          calls++;
        }
      }
      expect(failures).toEqual([]);
      expect(calls).toBeGreaterThan(1000);
      expect(await snapshot(memory)).toBe(before);
    } finally {
      await memory.close();
      await instance.cleanup();
    }
  }, 300_000);

  it('random garbage for any method: nothing but SCHEMA_INVALID (or a warning), nothing stored changes', async () => {
    const instance = store.open();
    const { memory, world } = await seeded(instance);
    try {
      const examples = methodExamples(world);
      const methods = publicMethods(memory);
      const before = await snapshot(memory);
      const garbage = fc
        .anything({
          maxDepth: 2,
          withDate: true,
          withMap: true,
          withTypedArray: true,
          withNullPrototype: true,
        })
        // The one input valid for every all-optional method (close included): an object without
        // own keys, which reads as empty options whatever its prototype (a Map, a Date).
        .filter(
          (v) =>
            v !== undefined &&
            !(typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0),
        );
      const failures: string[] = [];
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...methods),
          fc.array(garbage, { minLength: 1, maxLength: 2 }),
          async (path, args) => {
            const example = examples[path] as MethodExample;
            const outcome = await outcomeOf(memory, path, example, args);
            if (outcome.kind === 'other' && outcome.detail === 'resolved') return;
            checkRejection(path, 'garbage', outcome, failures);
          },
        ),
        { seed: 18_009, numRuns: runsFor(store, 400) },
      );
      expect(failures).toEqual([]);
      expect(await snapshot(memory)).toBe(before);
    } finally {
      await memory.close();
      await instance.cleanup();
    }
  }, 300_000);
});

describe('validation keeps meaning (issue #18 item 9 examples)', () => {
  const open = () => createMemory({ storage: 'memory', llm: 'heuristic', workers: { enabled: false } });
  const code = async (call: () => Promise<unknown>) =>
    call().then(
      () => null,
      (e: unknown) => (MemoryError.is(e) ? e.code : 'raw'),
    );

  it('setOptOut without optedOut, or with "false", is rejected and changes nothing', async () => {
    const memory = open();
    await memory.admin.setOptOut({ guildId: GUILD_A, userId: ALICE.id, optedOut: true });
    const set = memory.admin.setOptOut as (i: unknown) => Promise<void>;
    expect(await code(() => set({ guildId: GUILD_A, userId: ALICE.id }))).toBe('SCHEMA_INVALID');
    expect(await memory.admin.getOptOut({ guildId: GUILD_A, userId: ALICE.id })).toBe(true);
    expect(await code(() => set({ guildId: GUILD_A, userId: BOB.id, optedOut: 'false' }))).toBe(
      'SCHEMA_INVALID',
    );
    expect(await memory.admin.getOptOut({ guildId: GUILD_A, userId: BOB.id })).toBe(false);
    await memory.close();
  });

  it('purgeUser({dryRun: 0}) is rejected and purges nothing', async () => {
    const memory = open();
    await memory.facts.remember({ guildId: GUILD_A, subjectId: ALICE.id, text: 'Alice keeps three hives' });
    const purge = memory.admin.purgeUser as (i: unknown) => Promise<unknown>;
    expect(await code(() => purge({ guildId: GUILD_A, userId: ALICE.id, dryRun: 0 }))).toBe('SCHEMA_INVALID');
    expect(await memory.facts.getAll({ guildId: GUILD_A, subjectId: ALICE.id })).toHaveLength(1);
    await memory.close();
  });

  it('a 1M-character userIds string, and 10 MB appends and modes, are rejected', async () => {
    const memory = open();
    const huge = 'x'.repeat(10_000_000);
    const regen = memory.regenerateSummaries as (i: unknown) => Promise<number>;
    const t0 = performance.now();
    expect(await code(() => regen({ guildId: GUILD_A, userIds: huge.slice(0, 1_000_000) }))).toBe(
      'SCHEMA_INVALID',
    );
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(
      await code(() => memory.conversation.append({ sessionId: 's', role: 'user', content: huge })),
    ).toBe('SCHEMA_INVALID');
    expect(await memory.conversation.session('s')).toEqual([]);
    expect(
      await code(() => memory.activeModes.persist({ guildId: GUILD_A, channelId: CHANNEL_A, mode: huge })),
    ).toBe('SCHEMA_INVALID');
    expect(await memory.activeModes.list({ allInstances: true })).toEqual([]);
    await memory.close();
  });

  it('an author id __server__ is rejected: messages never become server facts', async () => {
    const memory = open();
    const event = {
      ...chat('700000000000000001', ALICE, 'we meet every Friday at the pub'),
      authorId: '__server__',
    };
    expect(await code(() => memory.observe(event))).toBe('SCHEMA_INVALID');
    expect((await memory.stats({ guildId: GUILD_A })).pending).toBe(0);
    expect(await memory.conversation.threadHistory({ guildId: GUILD_A, channelId: CHANNEL_A })).toEqual([]);
    await memory.close();
  });

  it('observeMany with one bad event stores none of them', async () => {
    const memory = open();
    const good = chat('700000000000000002', ALICE, 'I keep bees on my roof');
    const bad = { ...chat('700000000000000003', ALICE, 'hello'), createdAt: '2024-01-01 10:00' };
    expect(await code(() => memory.observeMany([good, bad]))).toBe('SCHEMA_INVALID');
    expect(await memory.conversation.threadHistory({ guildId: GUILD_A, channelId: CHANNEL_A })).toEqual([]);
    await memory.close();
  });
});

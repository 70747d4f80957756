import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  ActiveModesApi,
  AdminApi,
  CitedReply,
  ClaimsApi,
  CommandClassification,
  ContextInput,
  ConversationApi,
  FactsApi,
  FlushReport,
  ForgetMessageInput,
  ForgetMessageReport,
  GraphService,
  IdentityService,
  InsightsApi,
  Memory,
  MemoryConfigInput,
  MemoryOverrides,
  MessageEventInput,
  ObserveReceipt,
  OpsApi,
  PromptContext,
  PromptContextInput,
  RecallQueryInput,
  RecallResult,
  TwoTierContext,
} from '@permafrost/core';
import * as core from '@permafrost/core';
import * as internal from '@permafrost/core/internal';
import * as store from '@permafrost/core/store';
import { describe, expect, expectTypeOf, it } from 'vitest';
// @ts-expect-error: a plain ESM script without type declarations
import { exportsOf } from '../../scripts/exports-of.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const entries = {
  '@permafrost/core': { file: 'packages/core/src/index.ts', module: core },
  '@permafrost/core/store': { file: 'packages/core/src/store.ts', module: store },
  '@permafrost/core/internal': { file: 'packages/core/src/internal.ts', module: internal },
} as const;

/** The names docs/api.md lists for an entry (backticked identifiers between its markers). */
function documented(entry: string): Set<string> {
  const doc = readFileSync(resolve(root, 'docs/api.md'), 'utf8');
  const start = doc.indexOf(`<!-- entry:${entry} -->`);
  const end = doc.indexOf('<!-- entry:end -->', start);
  expect(start).toBeGreaterThan(-1);
  const names = [...doc.slice(start, end).matchAll(/`([A-Za-z_$][\w$]*)(?:\([^`]*\))?`/g)].map(
    (m) => m[1] as string,
  );
  return new Set(names);
}

const exported = (file: string): { name: string; type: boolean }[] =>
  (exportsOf as (f: string) => { name: string; type: boolean }[])(resolve(root, file));

describe('public API (docs/api.md)', () => {
  for (const [entry, { file, module }] of Object.entries(entries)) {
    it(`${entry} exports exactly what docs/api.md names`, () => {
      const names = new Set(exported(file).map((e) => e.name));
      const docs = documented(entry);
      expect([...names].filter((n) => !docs.has(n)).sort(), 'exported but not documented').toEqual([]);
      expect([...docs].filter((n) => !names.has(n)).sort(), 'documented but not exported').toEqual([]);
    });

    it(`${entry}: every runtime export the parser sees is a real value of the built module`, () => {
      const values = exported(file)
        .filter((e) => !e.type)
        .map((e) => e.name);
      expect(values.filter((n) => !(n in module)).sort()).toEqual([]);
      expect(
        Object.keys(module)
          .filter((n) => !values.includes(n))
          .sort(),
      ).toEqual([]);
    });
  }

  it('the root has no `export *` of a folder barrel (explicit lists only)', () => {
    const text = readFileSync(resolve(root, entries['@permafrost/core'].file), 'utf8');
    expect(text.match(/^export \* from/gm)).toBeNull();
  });
});

const flushReport = (m: Memory) => m.flush({ report: true });

describe('the facade types can be imported from @permafrost/core', () => {
  it('are the types the Memory methods take and return', () => {
    expectTypeOf<Parameters<Memory['observe']>[0]>().toEqualTypeOf<MessageEventInput>();
    expectTypeOf<Awaited<ReturnType<Memory['observe']>>>().toEqualTypeOf<ObserveReceipt>();
    expectTypeOf<Parameters<Memory['recall']>[0]>().toEqualTypeOf<RecallQueryInput>();
    expectTypeOf<Awaited<ReturnType<Memory['recall']>>>().toEqualTypeOf<RecallResult>();
    expectTypeOf<Parameters<Memory['promptContext']>[0]>().toEqualTypeOf<PromptContextInput>();
    expectTypeOf<Awaited<ReturnType<Memory['promptContext']>>>().toEqualTypeOf<PromptContext>();
    expectTypeOf<Parameters<Memory['context']>[0]>().toEqualTypeOf<ContextInput>();
    expectTypeOf<Awaited<ReturnType<Memory['context']>>>().toEqualTypeOf<TwoTierContext>();
    expectTypeOf<Awaited<ReturnType<Memory['cite']>>>().toEqualTypeOf<CitedReply>();
    expectTypeOf<Awaited<ReturnType<Memory['classifyCommand']>>>().toEqualTypeOf<CommandClassification>();
    expectTypeOf<Parameters<Memory['forgetMessage']>[0]>().toEqualTypeOf<ForgetMessageInput>();
    expectTypeOf<Awaited<ReturnType<Memory['forgetMessage']>>>().toEqualTypeOf<ForgetMessageReport>();
    expectTypeOf<Awaited<ReturnType<typeof core.createMemory>>>().toEqualTypeOf<Memory>();
    expectTypeOf<Parameters<typeof core.createMemory>[0]>().toEqualTypeOf<MemoryConfigInput | undefined>();
    expectTypeOf<Parameters<typeof core.createMemory>[1]>().toEqualTypeOf<MemoryOverrides | undefined>();
    expectTypeOf<Memory['ops']>().toEqualTypeOf<OpsApi>();
    expectTypeOf<Awaited<ReturnType<typeof flushReport>>>().toEqualTypeOf<FlushReport>();
  });

  it('name every group of the Memory', () => {
    type Methods<T> = { [K in keyof T]: T[K] };
    expectTypeOf<keyof Memory['facts']>().toEqualTypeOf<keyof FactsApi>();
    expectTypeOf<keyof Memory['identity']>().toEqualTypeOf<keyof IdentityService>();
    expectTypeOf<keyof Memory['graph']>().toEqualTypeOf<keyof GraphService>();
    expectTypeOf<keyof Memory['admin']>().toEqualTypeOf<keyof AdminApi>();
    expectTypeOf<keyof Memory['conversation']>().toEqualTypeOf<keyof ConversationApi | 'search'>();
    expectTypeOf<keyof Memory['claims']>().toEqualTypeOf<keyof ClaimsApi>();
    expectTypeOf<keyof Memory['activeModes']>().toEqualTypeOf<keyof ActiveModesApi>();
    expectTypeOf<keyof Memory['insights']>().toEqualTypeOf<keyof InsightsApi>();
    expectTypeOf<Methods<Memory['claims']>['tryClaim']>().toBeFunction();
  });
});

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Memory } from '@permafrost/core';
import { CHANNEL_A, chat, GUILD_A, type Member } from './world.js';

/**
 * One valid call of a public Memory method, with what the validation property needs to know to
 * make it certainly invalid: which keys of an object argument may be left out, which may be null.
 */
export interface MethodExample {
  readonly args: readonly unknown[];
  /** Keys of object arguments that may be absent (removing any other key must be rejected). */
  readonly optional?: readonly string[];
  /** Keys that accept null. */
  readonly nullable?: readonly string[];
  /** Never throws (answers bad input with a `query_invalid` warning instead). */
  readonly warns?: boolean;
  /** Indexes of object arguments that may carry other keys (a whole PromptContext for `cite`). */
  readonly loose?: readonly number[];
}

export interface ExampleWorld {
  readonly alice: Member;
  readonly bob: Member;
  readonly factId: string;
  /** A guild export document (a valid `admin.importGuild` payload). */
  readonly exportDoc: unknown;
}

/** Every public method of a Memory instance, as `name` or `group.name`, derived from the object. */
export function publicMethods(memory: Memory): string[] {
  const out: string[] = [];
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(memory)))
    if (name !== 'constructor' && typeof (memory as unknown as Record<string, unknown>)[name] === 'function')
      out.push(name);
  for (const [group, value] of Object.entries(memory)) {
    if (typeof value !== 'object' || value === null) continue;
    for (const [name, fn] of Object.entries(value))
      if (typeof fn === 'function') out.push(`${group}.${name}`);
  }
  return out.sort();
}

/** Resolves `group.name` on the memory (bound). */
export function methodOf(memory: Memory, path: string): (...args: unknown[]) => unknown {
  const parts = path.split('.');
  let owner: Record<string, unknown> = memory as unknown as Record<string, unknown>;
  if (parts.length === 2) owner = owner[parts[0] as string] as Record<string, unknown>;
  const fn = owner[parts[parts.length - 1] as string] as (...args: unknown[]) => unknown;
  return fn.bind(owner);
}

let backups = 0;

/** A valid call of every public method (a method missing here fails the property). */
export function methodExamples(w: ExampleWorld): Record<string, MethodExample> {
  const g = GUILD_A;
  const a = w.alice.id;
  const b = w.bob.id;
  const fact = { guildId: g, factId: w.factId };
  return {
    start: { args: [] },
    close: { args: [{ drain: false, timeoutMs: 1000 }], optional: ['drain', 'timeoutMs'] },
    observe: {
      args: [chat('900000000000000001', w.alice, 'I keep bees on my roof')],
      optional: [
        'authorUsername',
        'authorDisplayName',
        'authorIsBot',
        'mentionIds',
        'replyToMessageId',
        'threadParentId',
        'edited',
        'metadata',
      ],
      nullable: ['replyToMessageId', 'threadParentId'],
    },
    observeMany: {
      args: [[chat('900000000000000002', w.alice, 'I keep bees on my roof')], { history: true }],
      optional: ['history'],
    },
    flush: { args: [{ guildId: g, report: true }], optional: ['guildId', 'report'] },
    forgetMessage: { args: [{ guildId: g, channelId: CHANNEL_A, messageId: '900000000000000077' }] },
    observeReaction: {
      args: [
        {
          guildId: g,
          channelId: CHANNEL_A,
          messageId: '800000000000000001',
          userId: b,
          emoji: '👍',
          added: true,
          at: new Date('2026-08-24T12:00:00Z'),
          userIsBot: false,
        },
      ],
      optional: ['at', 'userIsBot'],
    },
    clearReactions: {
      args: [{ guildId: g, channelId: CHANNEL_A, messageId: '800000000000000001', emoji: '👍' }],
      optional: ['emoji'],
    },
    recall: { args: [{ guildId: g, text: 'bees' }], optional: ['text'], nullable: ['text'], warns: true },
    promptContext: {
      args: [{ guildId: g, askerId: a, text: 'bees' }],
      optional: ['text'],
      nullable: ['text'],
      warns: true,
    },
    context: {
      args: [{ guildId: g, channelId: CHANNEL_A, askerId: a, text: 'bees', mode: 'normal' }],
      optional: ['mode'],
      warns: true,
    },
    cite: { args: ['Alice keeps bees.', { citations: [] }], loose: [1] },
    registerBotId: { args: ['990000000000000009'] },
    stats: { args: [{ guildId: g }] },
    regenerateSummaries: { args: [{ guildId: g, userIds: [a] }], optional: ['userIds'] },
    classifyCommand: { args: ['remember that I keep bees'] },
    'events.on': { args: ['FactCommitted', () => {}] },
    'facts.remember': {
      args: [{ guildId: g, subjectId: a, text: 'Alice keeps three hives of bees', category: 'general' }],
      optional: ['category'],
      nullable: ['subjectId'],
    },
    'facts.get': { args: [fact] },
    'facts.getAll': {
      args: [{ guildId: g, subjectId: a, includeServer: false, limit: 5, random: false }],
      optional: ['includeServer', 'limit', 'random'],
      nullable: ['subjectId'],
    },
    'facts.update': {
      args: [{ ...fact, text: 'Alice keeps four hives of bees', reason: 'fix' }],
      optional: ['reason'],
    },
    'facts.forget': { args: [{ ...fact, reason: 'wrong' }], optional: ['reason'] },
    'facts.reinforce': { args: [fact] },
    'facts.history': { args: [fact] },
    'facts.listForSubject': {
      args: [{ guildId: g, subjectId: a, limit: 5 }],
      optional: ['limit'],
      nullable: ['subjectId'],
    },
    'facts.search': { args: [{ guildId: g, text: 'bees', limit: 5 }], optional: ['limit'], warns: true },
    'identity.resolve': { args: [{ guildId: g, identifier: 'Alice' }] },
    'identity.resolveMany': { args: [{ guildId: g, identifiers: ['Alice'] }] },
    'identity.registerAlias': { args: [{ guildId: g, userId: a, alias: 'ally' }] },
    'identity.handleMemberRename': { args: [{ guildId: g, userId: a, displayName: 'Ally' }] },
    'identity.aliasesOf': { args: [{ guildId: g, userId: a }] },
    'identity.displayName': { args: [{ guildId: g, userId: a }] },
    'identity.reconcileTwins': { args: [{ guildId: g, alias: 'alice' }] },
    'graph.between': { args: [{ guildId: g, a, b }] },
    'graph.relationsOf': { args: [{ guildId: g, userId: a, limit: 5 }], optional: ['limit'] },
    'graph.entityStances': { args: [{ guildId: g, entity: 'bees', limit: 5 }], optional: ['limit'] },
    'graph.usersForEntity': { args: [{ guildId: g, entity: 'bees', limit: 5 }], optional: ['limit'] },
    'graph.shared': { args: [{ guildId: g, a, b, limit: 5 }], optional: ['limit'] },
    'graph.sharedN': { args: [{ guildId: g, userIds: [a, b], limit: 5 }], optional: ['limit'] },
    'graph.similarUsers': { args: [{ guildId: g, userId: a, limit: 5 }], optional: ['limit'] },
    'graph.neighbors': { args: [{ guildId: g, userId: a, depth: 1 }], optional: ['depth'] },
    'admin.setOptOut': { args: [{ guildId: g, userId: b, optedOut: true }] },
    'admin.getOptOut': { args: [{ guildId: g, userId: a }] },
    'admin.purgeUser': { args: [{ guildId: g, userId: b, dryRun: true }], optional: ['dryRun'] },
    'admin.exportGuild': { args: [{ guildId: g }] },
    'admin.importGuild': { args: [{ data: w.exportDoc, guildId: g }], optional: ['guildId'] },
    'admin.exportUser': { args: [{ guildId: g, userId: a }] },
    // A new file each time (a backup never overwrites); stores without backups answer BACKUP_UNSUPPORTED.
    'admin.backup': { args: [{ path: join(tmpdir(), `pf-backup-example-${process.pid}-${++backups}.db`) }] },
    'conversation.threadHistory': {
      args: [{ guildId: g, channelId: CHANNEL_A, limit: 5 }],
      optional: ['limit'],
    },
    'conversation.authorHistory': { args: [{ guildId: g, authorId: a, limit: 5 }], optional: ['limit'] },
    'conversation.channelStats': { args: [{ guildId: g, channelId: CHANNEL_A }] },
    'conversation.recordReply': { args: [{ guildId: g, channelId: CHANNEL_A, content: 'hello' }] },
    'conversation.search': { args: [{ guildId: g, text: 'bees' }], warns: true },
    'conversation.append': { args: [{ sessionId: 'ses-1', role: 'user', content: 'hi' }] },
    'conversation.session': { args: ['ses-1', { limit: 5 }], optional: ['limit'] },
    'conversation.clear': { args: ['ses-1'] },
    'claims.tryClaim': {
      args: [{ guildId: g, channelId: CHANNEL_A, messageId: '900000000000000009', ttlSeconds: 30 }],
      optional: ['ttlSeconds'],
    },
    'claims.release': { args: [{ guildId: g, channelId: CHANNEL_A, messageId: '900000000000000009' }] },
    'activeModes.persist': { args: [{ guildId: g, channelId: CHANNEL_A, mode: 'chatty' }] },
    'activeModes.touch': { args: [{ guildId: g, channelId: CHANNEL_A }] },
    'activeModes.remove': { args: [{ guildId: g, channelId: CHANNEL_A }] },
    'activeModes.list': {
      args: [{ guildId: g, activeWithinMinutes: 10, allInstances: true }],
      optional: ['guildId', 'activeWithinMinutes', 'allInstances'],
    },
    'cursors.get': { args: [{ guildId: g, key: 'example:cursor' }] },
    'cursors.set': { args: [{ guildId: g, key: 'example:cursor', value: '{"before":"1"}' }] },
    'insights.topicTrends': {
      args: [{ guildId: g, hours: 24, limit: 5, weightByReactions: true }],
      optional: ['hours', 'limit', 'weightByReactions'],
    },
    'insights.activity': {
      args: [{ guildId: g, days: 7, weightByReactions: false }],
      optional: ['days', 'weightByReactions'],
    },
    'insights.preferences': { args: [{ guildId: g, userId: a, limit: 5 }], optional: ['limit'] },
    'ops.runPending': { args: [{ limit: 5, guildId: g }], optional: ['limit', 'guildId'] },
    'ops.retryDeadLetters': { args: [{ guildId: g }], optional: ['guildId'] },
    'ops.backfillAliases': { args: [{ guildId: g, members: [{ userId: a, username: 'alice' }] }] },
    'ops.maintenance': { args: [{ guildId: g, force: false }], optional: ['force'] },
    'ops.reindex': { args: [] },
    'ops.probeLlm': { args: [] },
    'ops.health': { args: [] },
    'ops.meterSnapshot': { args: [] },
    'ops.metrics': { args: [] },
  };
}

/** Keys that hold a member id: a reserved id (`__server__`) is never a member. */
const MEMBER_KEY = /^(userId|authorId|subjectId|askerId|speakerId|actorId|a|b)$/;

/** Marker inside oversized strings: it must never appear in an error. */
export const LEAK_MARK = 'leakmarkzq';
const HUGE = `${LEAK_MARK} ${'x'.repeat(3_000_000)}`;

/** Values of a different type than `valid` (or out of every bound), each certainly invalid there. */
export function wrongValuesFor(valid: unknown, key: string | null, nullable: boolean): unknown[] {
  const base: unknown[] = nullable ? [] : [null];
  if (typeof valid === 'string') {
    const out = [...base, 7, true, {}, [valid], HUGE];
    if (key && MEMBER_KEY.test(key)) out.push('__server__');
    return out;
  }
  if (typeof valid === 'number') return [...base, String(valid), true, Number.NaN, -1, 1e15, {}];
  if (typeof valid === 'boolean') return [...base, String(!valid), String(valid), 0, 1, {}];
  if (typeof valid === 'function') return [...base, 'handler', 7, {}];
  if (Array.isArray(valid)) return [...base, 'x', 7, {}, [7], HUGE, [HUGE]];
  if (valid instanceof Date) return [...base, '2024-01-01 10:00', 7, new Date(Number.NaN)];
  if (typeof valid === 'object' && valid !== null) return [...base, 7, 'x', [], true];
  return [...base, 7];
}

import type { Started } from '../composition/compose.js';
import { type Lazy, lazyGroup } from './lazy-group.js';

/** The method groups of `Memory` (`memory.facts`, …), each starting the memory on first use. */
export interface MemoryGroups {
  readonly facts: Lazy<Started['facts']>;
  readonly identity: Lazy<Started['identity']>;
  readonly graph: Lazy<Started['graph']>;
  readonly admin: Lazy<Started['admin']>;
  readonly conversation: Lazy<Started['conversation']>;
  readonly claims: Lazy<Started['claims']>;
  readonly activeModes: Lazy<Started['activeModes']>;
  readonly insights: Lazy<Started['insights']>;
  readonly cursors: Lazy<Started['cursors']>;
}

/** Every group with its full method list (the compiler checks each list is complete). */
export function lazyGroups(s: () => Promise<Started>): MemoryGroups {
  return {
    facts: lazyGroup(
      async () => (await s()).facts,
      ['remember', 'get', 'getAll', 'update', 'forget', 'reinforce', 'history', 'listForSubject', 'search'],
    ),
    identity: lazyGroup(
      async () => (await s()).identity,
      [
        'resolve',
        'resolveMany',
        'registerAlias',
        'handleMemberRename',
        'aliasesOf',
        'displayName',
        'reconcileTwins',
      ],
    ),
    graph: lazyGroup(
      async () => (await s()).graph,
      [
        'between',
        'relationsOf',
        'entityStances',
        'usersForEntity',
        'shared',
        'sharedN',
        'similarUsers',
        'neighbors',
      ],
    ),
    admin: lazyGroup(
      async () => (await s()).admin,
      ['setOptOut', 'getOptOut', 'purgeUser', 'exportGuild', 'importGuild', 'exportUser', 'backup'],
    ),
    conversation: lazyGroup(
      async () => (await s()).conversation,
      [
        'threadHistory',
        'authorHistory',
        'channelStats',
        'recordReply',
        'search',
        'append',
        'session',
        'clear',
      ],
    ),
    claims: lazyGroup(async () => (await s()).claims, ['tryClaim', 'release']),
    activeModes: lazyGroup(async () => (await s()).activeModes, ['persist', 'touch', 'remove', 'list']),
    insights: lazyGroup(async () => (await s()).insights, ['topicTrends', 'activity', 'preferences']),
    cursors: lazyGroup(async () => (await s()).cursors, ['get', 'set']),
  };
}

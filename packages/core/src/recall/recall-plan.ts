import { ChannelName, Scope } from '../model/enums.js';
import type { FactFilter, FactValidity } from '../ports/fact-store.js';
import type { RecallQuery } from './recall-query.js';

export interface RecallPlan {
  readonly scope: 'guild' | 'server' | 'subjects';
  /** Subjects after dropping bots and duplicates (empty unless scope is `subjects`). */
  readonly subjects: readonly string[];
  readonly pairs: readonly (readonly [string, string])[];
  readonly filter: FactFilter;
  readonly validity: FactValidity;
  readonly channels: ReadonlySet<ChannelName>;
}

/**
 * Decides scope and channels. Subject scope without subjects reads as guild scope. Subject scope
 * admits server facts only with `includeServer`. Graph hop runs for pairs and entity hints (or
 * when asked for explicitly); an explicit channel list is taken as given.
 */
export function planRecall(q: RecallQuery, isBot: (id: string) => boolean): RecallPlan {
  const requested = q.scope ?? (q.subjectIds.length > 0 ? Scope.SUBJECTS : Scope.GUILD);
  const subjects = requested === Scope.SUBJECTS ? [...new Set(q.subjectIds)].filter((s) => !isBot(s)) : [];
  const scope: RecallPlan['scope'] =
    requested === Scope.SERVER
      ? 'server'
      : requested === Scope.SUBJECTS && q.subjectIds.length > 0
        ? 'subjects'
        : 'guild';
  const validity: FactValidity = q.asOf ? { asOf: q.asOf } : 'active';
  const filter: FactFilter =
    scope === 'server'
      ? { guildId: q.guildId, serverOnly: true, validity }
      : scope === 'subjects'
        ? { guildId: q.guildId, subjectIds: subjects, includeServer: q.includeServer, validity }
        : { guildId: q.guildId, validity };
  const pairs = q.pairIds.filter(([a, b]) => a !== b && !isBot(a) && !isBot(b));
  let channels: Set<ChannelName>;
  if (q.channels) channels = new Set(q.channels);
  else {
    channels = new Set([
      ChannelName.VECTOR,
      ChannelName.KEYWORD,
      ChannelName.LINKS,
      ChannelName.BASELINE,
      ChannelName.ENTITY,
    ]);
    if (pairs.length > 0) channels.add(ChannelName.PAIR);
    if (q.entityHint !== null) channels.add(ChannelName.ENTITY_HINT);
    if (pairs.length > 0 || q.entityHint !== null) channels.add(ChannelName.GRAPH_HOP);
  }
  if (q.text === null) {
    channels.delete(ChannelName.VECTOR);
    channels.delete(ChannelName.KEYWORD);
    channels.delete(ChannelName.ENTITY);
  }
  // A subject-scoped recall whose subjects were all bots has nothing to read.
  if (scope === 'subjects' && subjects.length === 0) channels.clear();
  return { scope, subjects, pairs, filter, validity, channels };
}

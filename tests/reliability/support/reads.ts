import type { Memory } from '@permafrost/core';

export interface ReadProbe {
  readonly guildId: string;
  readonly channelIds: readonly string[];
  /** Members to ask about (asker first). */
  readonly memberIds: readonly string[];
  /** Query text used where an API takes text (bait: words that must not come back from elsewhere). */
  readonly text: string;
  /** Names to look up as entities and aliases (bait as well). */
  readonly names: readonly string[];
}

/**
 * Every read the public API offers for one guild, labelled. Used by the isolation, opt-out and purge
 * properties: the caller scans the JSON of each result for words that must not be there.
 */
export async function everyRead(memory: Memory, p: ReadProbe): Promise<[string, unknown][]> {
  const g = p.guildId;
  const [asker = '', other = asker] = p.memberIds;
  const out: [string, unknown][] = [];
  const add = async (label: string, call: () => Promise<unknown>) => {
    out.push([label, await call()]);
  };
  await add('recall.guild', () => memory.recall({ guildId: g, text: p.text }));
  await add('recall.subjects', () =>
    memory.recall({ guildId: g, text: p.text, subjectIds: [...p.memberIds], includeServer: true }),
  );
  await add('recall.structural', () => memory.recall({ guildId: g, subjectIds: [...p.memberIds] }));
  await add('recall.pairs', () => memory.recall({ guildId: g, text: p.text, pairIds: [[asker, other]] }));
  for (const name of p.names.slice(0, 3))
    await add(`recall.entity:${name}`, () => memory.recall({ guildId: g, text: name, entityHint: name }));
  await add('recall.asOf', () => memory.recall({ guildId: g, text: p.text, asOf: new Date() }));
  const ctx = await memory.promptContext({
    guildId: g,
    askerId: asker,
    text: p.text,
    mentionedIds: p.memberIds.slice(1),
    entityHint: p.names[0] ?? null,
  });
  out.push(['promptContext', { block: ctx.injectionBlock, facts: ctx.facts, citations: ctx.citations }]);
  // Inputs echoed back (the reply text, the identifier) are left out of what is scanned.
  await add('cite', async () => {
    const { claims, sources } = await memory.cite(`${p.text}. ${p.names.join(' ')}`, ctx);
    return { claims, sources };
  });
  for (const channelId of p.channelIds) {
    await add(`context:${channelId}`, () =>
      memory.context({
        guildId: g,
        channelId,
        askerId: asker,
        text: `remember when ${p.text}`,
        mode: 'deep',
      }),
    );
    await add(`threadHistory:${channelId}`, () =>
      memory.conversation.threadHistory({ guildId: g, channelId, limit: 1000 }),
    );
    await add(`channelStats:${channelId}`, () => memory.conversation.channelStats({ guildId: g, channelId }));
  }
  await add('conversation.search', () =>
    memory.conversation.search({ guildId: g, text: p.text, limit: 200 }),
  );
  await add('facts.search', () =>
    memory.facts.search({ guildId: g, text: p.text, limit: 200, includeServer: true }),
  );
  await add('admin.exportGuild', () => memory.admin.exportGuild({ guildId: g }));
  await add('stats', () => memory.stats({ guildId: g }));
  await add('insights.topicTrends', () =>
    memory.insights.topicTrends({ guildId: g, hours: 24 * 365, limit: 500 }),
  );
  await add('insights.activity', () => memory.insights.activity({ guildId: g, days: 3650 }));
  for (const userId of p.memberIds) {
    await add(`facts.getAll:${userId}`, () =>
      memory.facts.getAll({ guildId: g, subjectId: userId, limit: 1000 }),
    );
    await add(`authorHistory:${userId}`, () =>
      memory.conversation.authorHistory({ guildId: g, authorId: userId, limit: 1000 }),
    );
    await add(`exportUser:${userId}`, () => memory.admin.exportUser({ guildId: g, userId }));
    await add(`aliasesOf:${userId}`, () => memory.identity.aliasesOf({ guildId: g, userId }));
    await add(`displayName:${userId}`, () => memory.identity.displayName({ guildId: g, userId }));
    await add(`graph.relationsOf:${userId}`, () =>
      memory.graph.relationsOf({ guildId: g, userId, limit: 500 }),
    );
    await add(`graph.neighbors:${userId}`, () => memory.graph.neighbors({ guildId: g, userId, depth: 3 }));
    await add(`graph.similarUsers:${userId}`, () =>
      memory.graph.similarUsers({ guildId: g, userId, limit: 50 }),
    );
    await add(`insights.preferences:${userId}`, () =>
      memory.insights.preferences({ guildId: g, userId, limit: 100 }),
    );
  }
  await add('facts.getAll:server', () => memory.facts.getAll({ guildId: g, subjectId: null, limit: 1000 }));
  await add('graph.between', () => memory.graph.between({ guildId: g, a: asker, b: other }));
  await add('graph.shared', () => memory.graph.shared({ guildId: g, a: asker, b: other, limit: 100 }));
  await add('graph.sharedN', () =>
    memory.graph.sharedN({ guildId: g, userIds: [...p.memberIds], limit: 100 }),
  );
  for (const name of p.names) {
    await add(`graph.entityStances:${name}`, () =>
      memory.graph.entityStances({ guildId: g, entity: name, limit: 500 }),
    );
    await add(`graph.usersForEntity:${name}`, () =>
      memory.graph.usersForEntity({ guildId: g, entity: name, limit: 500 }),
    );
    await add(`identity.resolve:${name}`, async () => {
      const { resolved, candidates } = await memory.identity.resolve({ guildId: g, identifier: name });
      return { resolved, candidates };
    });
  }
  return out;
}

/** A Permafrost id (`<prefix>_<ulid>`, Crockford base32): random letters that are never user words. */
const ID_SHAPED = /\b[a-z][a-z0-9]{1,11}_[0-9a-hjkmnp-tv-z]{26}\b/g;

/** The JSON of a read with every id-shaped string blanked: what leak detectors search. */
export function scannedJson(value: unknown): string {
  return (JSON.stringify(value) ?? '').toLowerCase().replace(ID_SHAPED, '<id>');
}

/**
 * Labels of results whose JSON contains any of the words (case-insensitive). Ids are left out of
 * the search: a random id that happens to spell a word is not a leak.
 */
export function leaks(results: readonly [string, unknown][], words: readonly string[]): string[] {
  const lower = words.map((w) => w.toLowerCase());
  const found: string[] = [];
  for (const [label, value] of results) {
    const json = scannedJson(value);
    for (const w of lower) if (json.includes(w)) found.push(`${label} ⊃ ${w}`);
  }
  return found;
}

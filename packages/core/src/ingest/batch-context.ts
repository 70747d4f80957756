import type {
  ExistingFactLine,
  ExtractionInput,
  ExtractionMessage,
} from '../extraction/extraction-contract.js';
import { SERVER_TOKEN } from '../extraction/extraction-contract.js';
import { aliasRank } from '../identity/aliases.js';
import type { Fact } from '../model/fact.js';
import type { StoredMessage } from '../model/message.js';
import type { IngestDeps } from './deps.js';
import { authorName, Roster } from './roster.js';

const MENTION = /<@!?(\d+)>/g;
const ROLE_OR_CHANNEL = /<[@#]&?\d+>/g;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

export const MAX_ANCHOR_FACTS = 6;
export const MAX_RELEVANT_FACTS = 12;
const RELEVANCE_FLOOR = 0.5;

export interface BatchContext {
  readonly input: ExtractionInput;
  readonly roster: Roster;
  /** Message by 1-based index as shown to the model. */
  readonly byIndex: ReadonlyMap<number, StoredMessage>;
  /** Users that must not become subjects in this batch (bots, opted out). */
  readonly blocked: ReadonlySet<string>;
  /** Member batches sharing this call (1 for a single batch or the community pass). */
  readonly batches: number;
}

/** Best known display name of a member who is only mentioned: latest message name, then strongest alias. */
async function nameOfMember(
  deps: IngestDeps,
  guildId: string,
  userId: string,
  fallback: string,
): Promise<string> {
  const [latest] = await deps.store.conversation.authorHistory(guildId, userId, 1);
  if (latest) return authorName(latest, fallback);
  const aliases = await deps.store.aliases.aliasesOf(guildId, userId);
  const best = [...aliases].sort(
    (a, b) => aliasRank(b.source) - aliasRank(a.source) || b.weight - a.weight,
  )[0];
  return best?.alias ?? fallback;
}

export async function buildBatchContext(
  deps: IngestDeps,
  guildId: string,
  messages: readonly StoredMessage[],
  scope: 'member' | 'community',
  batchAuthors: readonly string[],
): Promise<BatchContext> {
  const roster = new Roster();
  const blocked = new Set<string>();
  const optedOut = new Set(await deps.store.consent.optedOutUsers(guildId));
  const allowed = (userId: string) => !deps.isBot(userId) && !optedOut.has(userId);
  const authors = new Set(batchAuthors);
  for (const author of authors) {
    if (!allowed(author)) continue;
    const first = messages.find((m) => m.authorId === author);
    const fallback = `member ${roster.entries().length}`;
    roster.add(author, first ? authorName(first, fallback) : fallback, 'author');
  }
  for (const m of messages) {
    if (m.authorIsBot || !allowed(m.authorId)) blocked.add(m.authorId);
    else
      roster.add(
        m.authorId,
        authorName(m, `member ${roster.entries().length}`),
        authors.has(m.authorId) ? 'author' : 'participant',
      );
  }
  const byMessageId = new Map(messages.map((m) => [m.messageId, m]));
  for (const m of messages) {
    const targets = [...m.mentionIds];
    const replied = m.replyToMessageId ? byMessageId.get(m.replyToMessageId) : undefined;
    if (replied) targets.push(replied.authorId);
    for (const id of targets) {
      if (!allowed(id)) {
        blocked.add(id);
        continue;
      }
      if (roster.tokenOf(id) === undefined)
        roster.add(
          id,
          await nameOfMember(deps, guildId, id, `member ${roster.entries().length}`),
          'mentioned',
        );
    }
  }

  const byIndex = new Map<number, StoredMessage>();
  const indexOf = new Map<string, number>();
  const lines: ExtractionMessage[] = messages.map((m, i) => {
    byIndex.set(i + 1, m);
    indexOf.set(m.messageId, i + 1);
    const content = m.content
      .replace(MENTION, (_all, id: string) => `@${roster.nameOfUser(id) ?? 'someone'}`)
      .replace(ROLE_OR_CHANNEL, '');
    const mentionTokens = m.mentionIds
      .map((id) => roster.tokenOf(id))
      .filter((t): t is string => t !== undefined);
    return {
      index: i + 1,
      authorToken: roster.tokenOf(m.authorId) ?? 'unknown',
      authorName: roster.nameOfUser(m.authorId) ?? authorName(m, 'someone'),
      content,
      mentionTokens,
      replyToIndex: m.replyToMessageId ? (indexOf.get(m.replyToMessageId) ?? null) : null,
    };
  });

  const existingFacts = await relevantFacts(deps, guildId, messages, roster, scope, [...authors], optedOut);
  const last = messages[messages.length - 1]?.createdAt ?? deps.clock.now();
  return {
    input: {
      scope,
      batchDate: last.toISOString().slice(0, 10),
      batchWeekday: WEEKDAYS[last.getUTCDay()] as string,
      roster: roster.entries(),
      messages: lines,
      existingFacts,
    },
    roster,
    byIndex,
    blocked,
    batches: Math.max(1, authors.size),
  };
}

/**
 * The strongest facts of each batch author (6 for one author, fewer each when several share a
 * call, 18 at most) plus up to 12 facts similar to the batch text.
 */
async function relevantFacts(
  deps: IngestDeps,
  guildId: string,
  messages: readonly StoredMessage[],
  roster: Roster,
  scope: 'member' | 'community',
  batchAuthors: readonly string[],
  optedOut: ReadonlySet<string>,
): Promise<ExistingFactLine[]> {
  const anchors: Fact[] = [];
  if (scope === 'member' && batchAuthors.length > 0) {
    const each = Math.max(2, Math.floor((MAX_ANCHOR_FACTS * 3) / batchAuthors.length));
    const perAuthor = Math.min(MAX_ANCHOR_FACTS, each);
    for (const author of batchAuthors)
      anchors.push(...(await deps.store.facts.topStrength({ guildId, subjectIds: [author] }, perAuthor)));
  } else {
    anchors.push(...(await deps.store.facts.topStrength({ guildId, serverOnly: true }, MAX_ANCHOR_FACTS)));
  }
  const seen = new Set(anchors.map((f) => f.id));
  const related: Fact[] = [];
  const [vector] = await deps.embedder.embed([
    messages
      .map((m) => m.content)
      .join('\n')
      .slice(0, 4000),
  ]);
  if (vector) {
    const subjectIds = roster
      .entries()
      .map((e) => roster.userOf(e.token))
      .filter((u): u is string => typeof u === 'string');
    const hits = await deps.store.vectors.search({
      kind: 'fact',
      guildId,
      vector,
      limit: MAX_RELEVANT_FACTS * 2,
      ...(scope === 'member' ? { subjectIds, includeServer: true } : { serverOnly: true }),
    });
    const wanted = hits
      .filter((h) => h.score >= RELEVANCE_FLOOR && !seen.has(h.id))
      .slice(0, MAX_RELEVANT_FACTS);
    related.push(
      ...(await deps.store.facts.get(
        guildId,
        wanted.map((h) => h.id),
      )),
    );
  }
  // Nothing about, or said by, a member who opted out goes to the model.
  const shown = (f: Fact) =>
    (f.subjectId === null || !optedOut.has(f.subjectId)) &&
    (f.attribution.speakerId === null || !optedOut.has(f.attribution.speakerId));
  return [...anchors, ...related].filter(shown).map((f, i) => ({
    ref: `f${i + 1}`,
    subjectToken: f.subjectId === null ? SERVER_TOKEN : (roster.tokenOf(f.subjectId) ?? 'other'),
    text: f.text,
  }));
}

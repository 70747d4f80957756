import type { MemoryConfig } from '../config/schema.js';
import type { PromptContext } from '../context/prompt-context-types.js';
import { RecallWarning } from '../model/enums.js';
import type { MetricsRegistry } from '../observability/metrics.js';
import type { Clock } from '../ports/clock.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { normalizeText } from '../text/analyze.js';
import { inlineUntrusted } from '../text/untrusted.js';
import type { HotTier } from './hot-tier.js';
import type { ConversationMessage } from './message-view.js';
import { withReactions } from './reaction-counts.js';
import { longTermTrigger } from './triggers.js';

export const ContextMode = { INSTANT: 'instant', NORMAL: 'normal', DEEP: 'deep' } as const;
export type ContextMode = (typeof ContextMode)[keyof typeof ContextMode];

export interface ContextInput {
  readonly guildId: string;
  readonly channelId: string;
  readonly askerId: string;
  readonly text: string;
  readonly mode?: ContextMode;
  readonly mentionedIds?: readonly string[];
}

/** The reply-time context of the two-tier design: recent messages, plus long-term memory when useful. */
export interface TwoTierContext {
  /** Hot tier: the channel's last N messages, oldest first. */
  readonly recent: readonly ConversationMessage[];
  /** Long-term block (the prompt-context injection block) or null when not used. */
  readonly longTerm: PromptContext | null;
  /** Ready-to-use text: the long-term block (if any) followed by the recent transcript. */
  readonly block: string;
  readonly mode: ContextMode;
  /** Why the long-term tier was consulted (`deep`, a trigger name), or null. */
  readonly trigger: string | null;
  readonly cached: boolean;
  readonly warnings: readonly string[];
  readonly timings: { readonly hotMs: number; readonly longTermMs: number | null };
}

interface CacheEntry {
  readonly at: number;
  readonly subjects: ReadonlySet<string>;
  readonly value: PromptContext;
}

export interface ContextDeps {
  readonly store: MemoryStore;
  readonly clock: Clock;
  readonly hot: HotTier;
  readonly config: MemoryConfig['context'];
  readonly metrics: MetricsRegistry;
  readonly promptContext: (input: {
    guildId: string;
    askerId: string;
    text: string;
    mentionedIds: readonly string[];
    minScore: number;
    audience: { readonly channelId: string; readonly requesterId: string };
    /** Recent speakers of the channel, for the section about the people together. */
    companions: readonly string[];
  }) => Promise<PromptContext>;
}

/** ` (reactions: 👍 3, 🎉 1)`: at most five emoji, each printed as untrusted text. */
function reactionNote(m: ConversationMessage): string {
  if (m.reactions.length === 0) return '';
  const shown = m.reactions.slice(0, 5).map((r) => `${inlineUntrusted(r.emoji)} ${r.count}`);
  return ` (reactions: ${shown.join(', ')})`;
}

function transcript(messages: readonly ConversationMessage[]): string {
  return messages
    .map((m) => `${m.authorName || m.authorId}${m.isBot ? ' (bot)' : ''}: ${m.content}${reactionNote(m)}`)
    .join('\n');
}

const SERVER = '\u0000server';
/** Most recent speakers considered with the asker and the mentioned members. */
const MAX_COMPANIONS = 8;

/** Members who spoke in the recent messages, latest first (bots, replies and the asker left out). */
function recentSpeakers(recent: readonly ConversationMessage[], askerId: string): string[] {
  const out: string[] = [];
  for (let i = recent.length - 1; i >= 0 && out.length < MAX_COMPANIONS; i--) {
    const m = recent[i] as ConversationMessage;
    if (m.isBot || m.kind !== 'chat' || m.authorId === askerId || out.includes(m.authorId)) continue;
    out.push(m.authorId);
  }
  return out;
}

/**
 * `context()`: the hot tier is served from process memory; the long-term tier (a prompt-context
 * recall) runs by mode — never for `instant`, always for `deep`, on a trigger for `normal` —
 * under a deadline, for the audience of the channel asked in, with results cached per (guild,
 * channel, asker, mentions, text) until the TTL ends or a fact
 * about one of the subjects changes.
 */
export class ContextService {
  readonly #deps: ContextDeps;
  readonly #cache = new Map<string, CacheEntry>();

  constructor(deps: ContextDeps) {
    this.#deps = deps;
  }

  /** Drops cached results that involve this subject (null = a server fact changed). */
  invalidate(guildId: string, subjectId: string | null): void {
    for (const [k, entry] of this.#cache) {
      if (!k.startsWith(`${guildId}\u0000`)) continue;
      if (subjectId === null ? entry.subjects.has(SERVER) : entry.subjects.has(subjectId))
        this.#cache.delete(k);
    }
  }

  async context(input: ContextInput): Promise<TwoTierContext> {
    const { metrics, config } = this.#deps;
    const mode = input.mode ?? ContextMode.NORMAL;
    const t0 = performance.now();
    metrics.inc('context.queries', { mode });
    const warnings: string[] = [];
    let recent: readonly ConversationMessage[] = [];
    try {
      recent = await this.#deps.hot.recent(this.#deps.store.conversation, input.guildId, input.channelId);
      // Counts are read each time (one read when nothing was reacted to): reactions change after
      // the message, in any process, and purges and opt-outs must show at once.
      recent = await withReactions(this.#deps.store, input.guildId, recent);
    } catch {
      warnings.push(RecallWarning.STORE_UNAVAILABLE);
      metrics.inc('context.errors');
    }
    const hotMs = performance.now() - t0;
    const mentioned = input.mentionedIds ?? [];
    const trigger =
      mode === ContextMode.DEEP
        ? 'deep'
        : mode === ContextMode.INSTANT
          ? null
          : longTermTrigger(input.text, mentioned);
    let longTerm: PromptContext | null = null;
    let cached = false;
    let longTermMs: number | null = null;
    if (trigger !== null) {
      const t1 = performance.now();
      // The audience is the channel asked in: a block cached for one channel never answers another.
      const companions = recentSpeakers(recent, input.askerId);
      const key = `${input.guildId}\u0000${input.channelId}\u0000${input.askerId}\u0000${[...mentioned].sort().join(',')}\u0000${[...companions].sort().join(',')}\u0000${normalizeText(input.text)}`;
      const hit = this.#cache.get(key);
      const now = this.#deps.clock.now().getTime();
      if (hit && now - hit.at < config.cacheTtlSeconds * 1000) {
        longTerm = hit.value;
        cached = true;
        metrics.inc('context.cache_hits');
      } else {
        metrics.inc('context.cache_misses');
        const outcome = await this.#withDeadline(input, mentioned, companions, key);
        if (outcome === 'timeout') {
          warnings.push(RecallWarning.LONG_TERM_TIMEOUT);
          metrics.inc('context.timeouts');
        } else if (outcome === 'error') {
          warnings.push(RecallWarning.LONG_TERM_FAILED);
          metrics.inc('context.errors');
        } else longTerm = outcome;
      }
      longTermMs = performance.now() - t1;
      metrics.observe('context.long_term', longTermMs);
      if (longTerm) warnings.push(...longTerm.warnings);
    }
    const parts = [
      longTerm?.injectionBlock ?? '',
      recent.length > 0 ? `[RECENT CONVERSATION]\n${transcript(recent)}` : '',
    ].filter((p) => p.length > 0);
    const total = performance.now() - t0;
    metrics.observe('context', total, { mode });
    return {
      recent,
      longTerm,
      block: parts.join('\n\n'),
      mode,
      trigger,
      cached,
      warnings: [...new Set(warnings)],
      timings: { hotMs, longTermMs },
    };
  }

  async #withDeadline(
    input: ContextInput,
    mentioned: readonly string[],
    companions: readonly string[],
    key: string,
  ): Promise<PromptContext | 'timeout' | 'error'> {
    const { config } = this.#deps;
    const work = this.#deps
      .promptContext({
        guildId: input.guildId,
        askerId: input.askerId,
        text: input.text,
        mentionedIds: mentioned,
        minScore: config.minScore,
        audience: { channelId: input.channelId, requesterId: input.askerId },
        companions,
      })
      .then((value) => {
        // Cache even a late result: the next identical question is then answered from memory.
        const subjects = new Set<string>([
          input.askerId,
          ...mentioned,
          ...companions,
          SERVER,
          ...value.facts.map((f) => f.fact.subjectId ?? SERVER),
        ]);
        if (config.cacheTtlSeconds > 0)
          this.#cache.set(key, { at: this.#deps.clock.now().getTime(), subjects, value });
        if (this.#cache.size > 10_000) {
          const oldest = this.#cache.keys().next();
          if (!oldest.done) this.#cache.delete(oldest.value);
        }
        return value;
      });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), config.longTermTimeoutMs);
    });
    try {
      return await Promise.race([work, deadline]);
    } catch {
      return 'error';
    } finally {
      clearTimeout(timer);
      work.catch(() => undefined);
    }
  }
}

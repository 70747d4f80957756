import { emptyPromptContext, emptyTwoTierContext } from '../api/empty-context.js';
import { citeSchema, contextSchema } from '../api/memory-inputs.js';
import type { Started } from '../composition/compose.js';
import { cite as citeReply } from '../context/cite.js';
import type { PromptContextInput } from '../context/prompt-context-service.js';
import type { CitedReply, PromptContext } from '../context/prompt-context-types.js';
import type { ContextInput, TwoTierContext } from '../conversation/context-service.js';
import { RecallWarning } from '../model/enums.js';
import type { MetricsRegistry } from '../observability/metrics.js';
import type { RecallQueryInput } from '../recall/recall-query.js';
import type { RecallResult } from '../recall/recall-types.js';
import { checkInput, parseInput } from '../validation/index.js';

/**
 * The reads of the facade (recall, promptContext, context, cite): they start the memory, time
 * themselves, and never throw an operational error — a store that cannot start answers empty with
 * `store_unavailable`.
 */
export class ReadFront {
  readonly #metrics: MetricsRegistry;
  readonly #start: () => Promise<Started>;

  constructor(metrics: MetricsRegistry, start: () => Promise<Started>) {
    this.#metrics = metrics;
    this.#start = start;
  }

  /** Zero-model hybrid recall. Never throws: failures become warnings and degraded channels. */
  async recall(query: RecallQueryInput): Promise<RecallResult> {
    const t0 = performance.now();
    try {
      const result = await (await this.#start()).recall.recall(query);
      this.#metrics.observe('recall', performance.now() - t0);
      return result;
    } catch {
      this.#metrics.inc('recall.errors');
      return { facts: [], warnings: [RecallWarning.STORE_UNAVAILABLE], degradedChannels: [] };
    }
  }

  /** The labelled memory block for a reply, with citations. Zero model calls; never throws. */
  async promptContext(input: PromptContextInput): Promise<PromptContext> {
    const t0 = performance.now();
    try {
      const started = await this.#start();
      const ctx = await started.prompt.promptContext(input);
      this.#metrics.observe('prompt_context', performance.now() - t0);
      return ctx;
    } catch {
      this.#metrics.inc('prompt_context.errors');
      return emptyPromptContext([RecallWarning.STORE_UNAVAILABLE]);
    }
  }

  /** Two-tier context: the channel's recent messages, plus long-term memory when the mode calls for it. */
  async context(input: ContextInput): Promise<TwoTierContext> {
    const valid = checkInput(contextSchema, input, 'context').ok;
    const started = valid ? await this.#start().catch(() => null) : null;
    if (!started)
      return valid
        ? emptyTwoTierContext(input.mode ?? 'normal', RecallWarning.STORE_UNAVAILABLE)
        : emptyTwoTierContext('normal', RecallWarning.QUERY_INVALID);
    return started.context.context(input);
  }

  /** Attributes reply sentences to the facts of a prompt context by embedding similarity. Never throws. */
  async cite(reply: string, ctx: Pick<PromptContext, 'citations'>): Promise<CitedReply> {
    parseInput(citeSchema, [reply, ctx], 'cite');
    try {
      const started = await this.#start();
      return await citeReply(reply, ctx, {
        embedder: started.rt.embedder,
        minScore: started.rt.config.retrieval.citationMinScore,
      });
    } catch {
      return { text: reply, claims: [], sources: [] };
    }
  }
}

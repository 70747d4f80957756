import type { Resolution } from '../identity/resolution.js';
import type { RecallWarning } from '../model/enums.js';
import type { ScoredFact } from '../recall/recall-types.js';

/** A fact line of the injection block and where it came from. */
export interface Citation {
  /** Tag shown in the block and echoed by the model, e.g. `mem:3`. */
  readonly ref: string;
  /** N of `mem:N` (1-based, block order). */
  readonly index: number;
  readonly factId: string;
  /** Discord jump link of the fact's primary source message; null when the fact has no source. */
  readonly url: string | null;
  /** The fact text as shown (≤ 280 characters). */
  readonly snippet: string;
  readonly subjectId: string | null;
  readonly subjectName: string | null;
  readonly messageId: string | null;
  readonly channelId: string | null;
  readonly score: number;
  readonly rerankScore: number | null;
}

export interface TokenUsage {
  /** Estimated prompt tokens of the block (4 characters per token). */
  readonly promptTokens: number;
}

/** One sentence of a reply and the memory sources it was attributed to. */
export interface CitedClaim {
  readonly claim: string;
  /** Offsets of the claim in the returned (uncited) text. */
  readonly start: number;
  readonly end: number;
  /** Refs (`mem:N`), best first, at most 3. */
  readonly sources: readonly string[];
}

export interface CitedReply {
  /** The reply with jump links inserted after attributed sentences. */
  readonly text: string;
  readonly claims: readonly CitedClaim[];
  /** Citations used at least once, in order of first use. */
  readonly sources: readonly Citation[];
}

export interface PromptContext {
  /** Text to put in the system prompt ('' when nothing is known). */
  readonly injectionBlock: string;
  /** The facts shown in the block, in block order. */
  readonly facts: readonly ScoredFact[];
  readonly citations: readonly Citation[];
  readonly resolutions: readonly Resolution[];
  readonly warnings: readonly RecallWarning[];
  readonly usage: TokenUsage;
  /** Turns echoed `[mem:N]` tags into jump links and strips unknown or link-less tags. */
  applyCitations(text: string): string;
  /** Attributes reply sentences to the block's facts by embedding similarity. Never throws. */
  cite(text: string): Promise<CitedReply>;
}

import { stripCitationTags } from '../context/citations.js';
import type { PromptContext } from '../context/prompt-context-types.js';
import type { ContextMode, TwoTierContext } from '../conversation/context-service.js';
import type { RecallWarning } from '../model/enums.js';

/** A prompt context with no memory (used when recall cannot run); the citation helpers still work. */
export function emptyPromptContext(warnings: readonly RecallWarning[]): PromptContext {
  return {
    injectionBlock: '',
    facts: [],
    citations: [],
    resolutions: [],
    warnings: [...warnings],
    usage: { promptTokens: 0 },
    applyCitations: (text) => stripCitationTags(text),
    cite: async (text) => ({ text, claims: [], sources: [] }),
  };
}

/** The answer of `context()` when it cannot run (bad input, store down): no messages, one warning. */
export function emptyTwoTierContext(mode: ContextMode, warning: RecallWarning): TwoTierContext {
  return {
    recent: [],
    longTerm: null,
    block: '',
    mode,
    trigger: null,
    cached: false,
    warnings: [warning],
    timings: { hotMs: 0, longTermMs: null },
  };
}

import { stripCitationTags } from '../context/citations.js';
import type { PromptContext } from '../context/prompt-context-types.js';
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

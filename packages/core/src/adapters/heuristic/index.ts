export { COMMAND_GATE, classifyCommandHeuristically } from '../../extraction/command-rules.js';
export {
  type Aspect,
  type AspectFamily,
  aspectOf,
  isSingleValued,
  polarityFlip,
  sameAspect,
} from '../../text/aspects.js';
export { sequenceRatio } from '../../text/sequence-ratio.js';
export { STATE_CHANGE } from '../../text/state-change.js';
export { extractHeuristically, MAX_OPERATIONS, THIRD_PARTY_MAX_CONFIDENCE } from './extract.js';
export { answerHeuristically, createHeuristicLlm, HEURISTIC_MODEL } from './heuristic-llm.js';
export { mergeTexts, reconcileHeuristically, restates } from './reconcile.js';
export { summarizeHeuristically } from './summarize.js';

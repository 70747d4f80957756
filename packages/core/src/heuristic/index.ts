export {
  type Aspect,
  type AspectFamily,
  aspectOf,
  isSingleValued,
  polarityFlip,
  sameAspect,
} from './aspects.js';
export { COMMAND_GATE, classifyCommandHeuristically } from './classify-command.js';
export { extractHeuristically, MAX_OPERATIONS, THIRD_PARTY_MAX_CONFIDENCE } from './extract.js';
export { answerHeuristically, createHeuristicLlm, HEURISTIC_MODEL } from './heuristic-llm.js';
export { mergeTexts, reconcileHeuristically, restates, STATE_CHANGE } from './reconcile.js';
export { sequenceRatio } from './sequence-ratio.js';
export { summarizeHeuristically } from './summarize.js';

export { FixedClock, sequentialIds } from './fixed-clock.js';
export { createScriptedLlm, type ScriptedLlm, type ScriptedReply } from './scripted-llm.js';

import { describe, expect, it } from 'vitest';
import { COMMAND_GATE, classifyCommandHeuristically } from '../../src/adapters/heuristic/index.js';

/** [message, action, target] */
const CASES: readonly (readonly [string, string, string])[] = [
  ['remember that I like tea', 'remember', 'I like tea'],
  ['@permafrost remember that my sister is called Jo', 'remember', 'my sister is called Jo'],
  ['please remember: I am vegan.', 'remember', 'I am vegan'],
  ['save this: my birthday is May 9', 'remember', 'my birthday is May 9'],
  ['forget what I said about my job', 'forget', 'my job'],
  ['forget that I live in Omaha', 'forget', 'I live in Omaha'],
  ["don't remember that", 'forget', ''],
  ['purge your memories', 'forget', ''],
  ['what do you know about me', 'query', 'me'],
  ['what do you remember about bob?', 'query', 'bob'],
  ['do you remember my favorite color', 'query', 'my favorite color'],
  ['update: I moved to Berlin', 'update', 'I moved to Berlin'],
  ['correction - I work at Globex now', 'update', 'I work at Globex now'],
  ['I will always remember that trip', 'none', ''],
  ['does anyone know when the next update is coming out?', 'none', ''],
];

const CHATTER = ['lol nice', 'i love jazz', 'game night is friday', 'brb'];

describe('classifyCommandHeuristically', () => {
  it.each(CASES)('%s → %s', (text, action, target) => {
    expect(COMMAND_GATE.test(text)).toBe(true);
    const result = classifyCommandHeuristically(text);
    expect(result.action).toBe(action);
    expect(result.targetText).toBe(target);
    if (action === 'none') expect(result.confidence).toBeLessThan(0.5);
    else expect(result.confidence).toBeGreaterThanOrEqual(0.75);
  });

  it.each(CHATTER)('chatter without a gate match: %s', (text) => {
    expect(COMMAND_GATE.test(text)).toBe(false);
    expect(classifyCommandHeuristically(text)).toEqual({ action: 'none', targetText: '', confidence: 0 });
  });
});

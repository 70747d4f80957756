import { describe, expect, it } from 'vitest';
import { renderExtractionPrompt } from '../../src/ingest/extraction-prompt.js';
import { readExtractionPrompt } from '../../src/testing/index.js';

const base = {
  batchDate: '2026-08-24',
  batchWeekday: 'Monday',
  roster: [
    { token: 'p0', name: 'Alice', role: 'author' as const },
    { token: 'p1', name: 'Bob (he/him)', role: 'mentioned' as const },
  ],
  messages: [
    {
      index: 1,
      authorToken: 'p0',
      authorName: 'Alice',
      content: 'I moved to Seattle',
      mentionTokens: [],
      replyToIndex: null,
    },
    {
      index: 2,
      authorToken: 'p0',
      authorName: 'Alice',
      content: '@Bob (he/him): see you there',
      mentionTokens: ['p1'],
      replyToIndex: 1,
    },
  ],
  existingFacts: [{ ref: 'f1', subjectToken: 'p0', text: 'Alice lives in Omaha' }],
};

const userText = (scope: 'member' | 'community') =>
  renderExtractionPrompt({ ...base, scope }).find((m) => m.role === 'user')?.content as string;

describe('readExtractionPrompt (test oracles) reads what renderExtractionPrompt writes', () => {
  it('member batch: roster, author, numbered lines with replies', () => {
    const read = readExtractionPrompt(userText('member'));
    expect(read.scope).toBe('member');
    expect(read.author).toBe('p0');
    expect([...read.roster]).toEqual([
      ['Alice', 'p0'],
      ['Bob (he/him)', 'p1'],
    ]);
    expect(read.lines).toEqual([
      { index: 1, name: 'Alice', token: 'p0', content: 'I moved to Seattle' },
      { index: 2, name: 'Alice', token: 'p0', content: '@Bob (he/him): see you there' },
    ]);
  });

  it('community batch is recognised', () => {
    expect(readExtractionPrompt(userText('community')).scope).toBe('community');
  });
});

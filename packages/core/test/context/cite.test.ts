import { describe, expect, it } from 'vitest';
import { applyCitations } from '../../src/context/citations.js';
import { cite, segmentClaims } from '../../src/context/cite.js';
import { jumpLink } from '../../src/context/jump-link.js';
import type { Citation } from '../../src/context/prompt-context-types.js';
import { createFakeEmbedder } from '../../src/testing/fake-embedder.js';

const citation = (
  index: number,
  snippet: string,
  url: string | null = `https://discord.com/channels/g/c/${index}`,
): Citation => ({
  ref: `mem:${index}`,
  index,
  factId: `f${index}`,
  url,
  snippet,
  subjectId: 'u1',
  subjectName: null,
  messageId: String(index),
  channelId: 'c',
  score: 1,
  rerankScore: null,
});

describe('segmentClaims', () => {
  it('splits sentences, excludes trailing punctuation and drops fragments', () => {
    const text = 'Hi! You like tea. You also like jazz…\nOk';
    expect(segmentClaims(text).map((s) => s.claim)).toEqual(['You like tea', 'You also like jazz']);
    const [first] = segmentClaims('You like tea.');
    expect(first).toMatchObject({ start: 0, end: 12 });
    expect(
      segmentClaims(Array.from({ length: 20 }, (_, i) => `Sentence number ${i}.`).join(' ')),
    ).toHaveLength(12);
  });
});

describe('cite', () => {
  it('attributes by similarity with one batched embed, at most 3 sources per claim', async () => {
    const embedder = createFakeEmbedder();
    const cites = [
      citation(1, 'likes green tea'),
      citation(2, 'likes green tea a lot'),
      citation(3, 'green tea fan'),
      citation(4, 'likes green tea daily'),
      citation(5, 'plays the cello'),
      citation(6, 'likes green tea', null),
    ];
    const out = await cite(
      'You like green tea. [mem:5] Nice weather today.',
      { citations: cites },
      {
        embedder,
        minScore: 0.55,
      },
    );
    expect(embedder.calls()).toBe(1);
    expect(out.claims).toHaveLength(1);
    expect(out.claims[0]?.sources).toHaveLength(3);
    expect(out.claims[0]?.sources).not.toContain('mem:5');
    expect(out.claims[0]?.sources).not.toContain('mem:6');
    expect(out.text.startsWith('You like green tea [[')).toBe(true);
    expect(out.text).not.toContain('[mem:5]');
    expect(out.text.endsWith('. Nice weather today.')).toBe(true);
  });

  it('respects the threshold and never throws', async () => {
    const embedder = createFakeEmbedder();
    const cites = [citation(1, 'plays the cello')];
    expect((await cite('You like tea.', { citations: cites }, { embedder, minScore: 0.55 })).claims).toEqual(
      [],
    );
    const failing = createFakeEmbedder({ failWith: new Error('down') });
    expect(
      await cite(
        'You like tea.',
        { citations: [citation(1, 'likes tea')] },
        { embedder: failing, minScore: 0.1 },
      ),
    ).toEqual({
      text: 'You like tea.',
      claims: [],
      sources: [],
    });
    expect((await cite(undefined as never, { citations: cites }, { embedder, minScore: 0.5 })).text).toBe('');
  });
});

describe('applyCitations', () => {
  it('links known tags and strips the rest', () => {
    const out = applyCitations('A [mem:1] B [mem:2][mem:7]', [citation(1, 'x'), citation(2, 'y', null)]);
    expect(out).toBe('A [[1]](<https://discord.com/channels/g/c/1>) B');
  });
});

describe('jumpLink', () => {
  it('links guild messages and DMs', () => {
    expect(jumpLink('123', '456', '789')).toBe('https://discord.com/channels/123/456/789');
    expect(jumpLink('dm:42', '456', '789')).toBe('https://discord.com/channels/@me/456/789');
  });
});

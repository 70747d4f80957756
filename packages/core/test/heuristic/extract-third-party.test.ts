import { describe, expect, it } from 'vitest';
import { batch, type Expected, expectOps, type MessageSpec, run } from './helpers.js';

/** Claims about another roster member: subject = that member, speaker = the author. */
const CASES: readonly (readonly [string, MessageSpec, readonly Expected[]])[] = [
  [
    'mention + preference',
    { content: '@Bob loves hiking', mentions: ['p1'] },
    [
      {
        subject: 'p1',
        speaker: 'p0',
        has: ['Bob', 'hiking'],
        not: ['according to'],
        maxConfidence: 0.7,
        verb: 'loves',
      },
    ],
  ],
  [
    'name without @',
    { content: 'bob lives in denver' },
    [{ subject: 'p1', speaker: 'p0', has: ['Bob', 'Denver'], not: ['according to'], maxConfidence: 0.7 }],
  ],
  [
    'possessive name',
    { content: "bob's name is robert" },
    [{ subject: 'p1', speaker: 'p0', has: ['Bob', 'named Robert'], maxConfidence: 0.7 }],
  ],
  [
    'profession',
    { content: '@Bob is a nurse', mentions: ['p1'] },
    [{ subject: 'p1', speaker: 'p0', has: ['Bob', 'nurse'], category: 'professional' }],
  ],
  [
    'label that is not a job',
    { content: '@Bob is a hacker', mentions: ['p1'] },
    [
      {
        subject: 'p1',
        speaker: 'p0',
        has: ['Bob was called a hacker by Alice'],
        category: 'relationships',
        maxConfidence: 0.7,
      },
    ],
  ],
  [
    'second person to the one mentioned',
    { content: '@Carol you play bass right', mentions: ['p2'] },
    [{ subject: 'p2', speaker: 'p0', has: ['Carol', 'plays bass'] }],
  ],
  [
    'reply in second person',
    { content: 'you work at acme', mentions: ['p2'], replyTo: 1 },
    [{ subject: 'p2', speaker: 'p0', has: ['Carol', 'Acme'] }],
  ],
  [
    'vocative stays about the author',
    { content: '@Bob i love hiking too', mentions: ['p1'] },
    [{ subject: 'p0', speaker: null, has: ['Alice', 'hiking'] }],
  ],
  ['question to a member', { content: '@Bob how is the guitar practice going', mentions: ['p1'] }, []],
  ['reported speech', { content: 'bob said he quit his job', mentions: [] }, []],
  ['unknown person', { content: 'dave loves hiking' }, []],
  ['second person without a single addressee', { content: 'you are a nurse' }, []],
  [
    'two facts about the same member',
    { content: 'bob lives in denver and works at acme' },
    [
      { subject: 'p1', speaker: 'p0', has: ['Bob', 'Denver'] },
      { subject: 'p1', speaker: 'p0', has: ['Bob', 'Acme'] },
    ],
  ],
];

describe('heuristic extraction: third-party statements', () => {
  it.each(CASES)('%s', (_label, spec, expected) => {
    expectOps(run(batch([spec])), expected);
  });

  it('anchors an insult on the person insulted (golden third_party_attribution)', () => {
    const ops = run(
      batch([
        { content: '@Bob stop hacking the lobby you absolute hacker everyone saw it', mentions: ['p1'] },
      ]),
    );
    expectOps(ops, [
      { subject: 'p1', speaker: 'p0', has: ['Bob', 'hacker', 'Alice'], not: ['alice was called'] },
    ]);
  });

  it('never attributes a claim about Bob to the author', () => {
    const ops = run(batch([{ content: '@Bob loves hiking', mentions: ['p1'] }]));
    expect(ops.every((o) => o.subjectToken !== 'p0')).toBe(true);
  });

  it('a hedged claim is weaker still', () => {
    const ops = run(batch(['i think bob likes jazz']));
    expect(ops[0]?.confidence).toBeLessThan(0.7);
    expect(ops[0]?.subjectToken).toBe('p1');
  });
});

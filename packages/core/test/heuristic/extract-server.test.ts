import { describe, expect, it } from 'vitest';
import { batch, type Expected, expectOps, run } from './helpers.js';

const S = 'server';

/** Community announcements: subject `server`, no speaker. */
const CASES: readonly (readonly [string, readonly Expected[]])[] = [
  [
    'game night is friday at 8',
    [
      {
        subject: S,
        has: ['game night', 'Friday (2026-08-28)', 'at 8'],
        category: 'events',
        entity: 'game night',
      },
    ],
  ],
  ['the tournament starts next week', [{ subject: S, has: ['tournament', 'next week'], category: 'events' }]],
  [
    'movie night is tomorrow at 9pm',
    [{ subject: S, has: ['movie night', 'tomorrow (2026-08-25)'], category: 'events' }],
  ],
  ['the raid is next friday', [{ subject: S, has: ['raid', 'next Friday (2026-09-04)'] }]],
  ['server rule: no spoilers', [{ subject: S, has: ['rule', 'no spoilers'], category: 'rules' }]],
  [
    'rule #3 - be nice to newcomers',
    [{ subject: S, has: ['rule', 'be nice to newcomers'], category: 'rules' }],
  ],
  ['no nsfw in #general', [{ subject: S, has: ['does not allow', 'nsfw'], category: 'rules' }]],
  ['we meet every tuesday', [{ subject: S, has: ['meets every Tuesday'], category: 'culture' }]],
  [
    'we play among us every friday night',
    [{ subject: S, has: ['plays among us', 'every Friday'], category: 'culture' }],
  ],
  ['this server is all about retro gaming', [{ subject: S, has: ['retro gaming'], category: 'culture' }]],
  ['everyone here loves bad puns', [{ subject: S, has: ['bad puns'], category: 'culture' }]],
  ['we love those', []],
  ['when is game night?', []],
  ['my party is saturday', []],
];

describe('heuristic extraction: community facts', () => {
  it.each(CASES)('%s', (content, expected) => {
    const ops = run(batch([content]));
    expectOps(ops, expected);
  });

  it('community scope emits only server facts', () => {
    const ops = run(
      batch(['i love jazz', 'game night is friday at 8', 'i live in oslo'], { scope: 'community' }),
    );
    expect(ops.map((o) => o.subjectToken)).toEqual([S]);
  });

  it('member scope keeps both', () => {
    const ops = run(batch(['i love jazz', 'game night is friday at 8']));
    expect(ops.map((o) => o.subjectToken)).toEqual(['p0', S]);
  });
});

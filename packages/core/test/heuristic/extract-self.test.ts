import { describe, expect, it } from 'vitest';
import { batch, type Expected, expectOps, run } from './helpers.js';

/** Self-statements: one message by Alice (p0), the facts expected about her, in order. */
const CASES: readonly (readonly [string, readonly Expected[]])[] = [
  // preferences
  [
    'i love rust programming',
    [{ has: ['Alice', 'rust programming'], entity: 'rust programming', verb: 'loves' }],
  ],
  ['I like jazz', [{ has: ['Alice likes jazz'], category: 'preferences', verb: 'likes' }]],
  ['i really enjoy board games lol', [{ has: ['Alice', 'board games'], verb: 'enjoys', not: ['lol'] }]],
  ['i adore my cat 😻', [{ has: ['Alice', 'their cat'], not: ['my cat'] }]],
  ['i hate cilantro', [{ has: ['Alice', 'hates cilantro'], verb: 'hates', category: 'preferences' }]],
  ["i can't stand country music", [{ has: ['Alice', 'dislikes', 'country music'], verb: 'hates' }]],
  ['i dont really like horror movies', [{ has: ['Alice', 'dislikes', 'horror movies'], verb: 'dislikes' }]],
  ['i prefer to stay home on weekends', [{ has: ['Alice', 'stay home'], category: 'preferences' }]],
  [
    'I love cooking, reading and hiking',
    [{ has: ['Alice', 'cooking, reading and hiking'], entity: 'hiking', category: 'interests' }],
  ],
  ['i was born in 1995', [{ has: ['Alice', '1995'], category: 'personal' }]],
  ['i was born in ohio', [{ has: ['Alice', 'born', 'Ohio'], entity: 'Ohio' }]],
  ['i live in a small town', [{ has: ['Alice', 'a small town'] }]],
  ['i prefer tea over coffee', [{ has: ['Alice', 'tea', 'over coffee'], verb: 'prefers', entity: 'coffee' }]],
  ['I think I like jazz', [{ has: ['Alice likes jazz'], maxConfidence: 0.7 }]],
  ["I'm a huge fan of the Lakers", [{ has: ['Alice', 'fan of the Lakers'], verb: 'fan_of' }]],
  ['my favourite colour is blue', [{ has: ["Alice's favorite colour", 'Blue'], category: 'preferences' }]],
  ['my fav game is hollow knight', [{ has: ["Alice's favorite game", 'hollow knight'] }]],
  [
    'i put tabasco on literally everything i eat',
    [{ has: ['Alice', 'tabasco'], category: 'preferences', verb: 'loves' }],
  ],
  [
    'i enjoy hiking in the mountains with my dog every weekend',
    [{ has: ['Alice', 'hiking in the mountains'], category: 'interests' }],
  ],
  // where and work
  [
    'big news: i moved to seattle last week!',
    [{ has: ['Alice', 'Seattle'], not: ['Last Week', 'last week', 'news'] }],
  ],
  [
    'i started a new job at google last month',
    [{ has: ['Alice', 'Google'], not: ['Last Month', 'last month'] }],
  ],
  [
    'i live in seattle',
    [{ has: ['Alice', 'Seattle'], category: 'personal', entity: 'Seattle', verb: 'lives_in' }],
  ],
  ['im from texas lol', [{ has: ['Alice', 'from Texas'], not: ['lol'] }]],
  ['i just moved to berlin!', [{ has: ['Alice', 'moved to Berlin'], verb: 'lives_in' }]],
  ['I relocated to Lisbon last year', [{ has: ['Alice', 'Lisbon'] }]],
  [
    'i work at acme corp',
    [{ has: ['Alice', 'Acme Corp'], category: 'professional', verb: 'works_at', entity: 'Acme Corp' }],
  ],
  ['i work for the city', [{ has: ['Alice', 'the city'], category: 'professional' }]],
  ['i work as a nurse', [{ has: ['Alice', 'a nurse'], category: 'professional' }]],
  [
    "i'm a software engineer at google",
    [{ has: ['Alice', 'software engineer', 'Google'], entity: 'Google' }],
  ],
  ['im a teacher', [{ has: ['Alice', 'a teacher'], category: 'professional' }]],
  [
    'i got promoted to charge nurse at acme',
    [{ has: ['Alice', 'promot', 'charge nurse at Acme'], category: 'professional' }],
  ],
  ['i study chemistry', [{ has: ['Alice', 'chemistry'], category: 'professional', verb: 'studies' }]],
  ["i'm studying biology at ucla", [{ has: ['Alice', 'biology', 'UCLA'], entity: 'UCLA' }]],
  ['i go to ohio state university', [{ has: ['Alice', 'Ohio State University'], verb: 'studies' }]],
  ["i'm learning japanese 🇯🇵", [{ has: ['Alice is learning japanese'], category: 'interests' }]],
  ['currently learning how to bake bread', []],
  ['im learning how to bake bread', [{ has: ['Alice', 'how to bake bread'] }]],
  // identity
  ['my name is sam btw', [{ has: ["Alice's name is Sam"], category: 'personal', not: ['btw'] }]],
  ['call me ali', [{ has: ['Alice', 'Ali'] }]],
  ['i go by jay', [{ has: ['Alice', 'Jay'] }]],
  ['my pronouns are she/her', [{ has: ['Alice', 'she/her'] }]],
  ['my birthday is march 3rd', [{ has: ["Alice's birthday is on March 3"] }]],
  ['my bday is tomorrow!!', [{ has: ['Alice', 'birthday', 'August 25'] }]],
  ["i'm allergic to peanuts", [{ has: ['Alice is allergic to peanuts'], verb: 'allergic_to' }]],
  ["i'm vegan", [{ has: ['Alice is vegan'], category: 'personal' }]],
  // pets, habits, hobbies
  ['i have a dog named rex', [{ has: ['Alice', 'dog', 'Rex'], entity: 'Rex', verb: 'owns' }]],
  ["my cat's name is biscuit", [{ has: ['Alice', 'cat', 'Biscuit'] }]],
  ['i have two cats', [{ has: ['Alice', 'two cats'] }]],
  ['i quit smoking last year', [{ has: ['Alice quit smoking'], verb: 'quit', not: ['last year'] }]],
  ['i gave up energy drinks', [{ has: ['Alice', 'up energy drinks'], verb: 'quit' }]],
  ['i no longer eat meat', [{ has: ['Alice', 'meat'] }]],
  ["i don't play league anymore", [{ has: ['Alice no longer plays league'] }]],
  ['i play guitar', [{ has: ['Alice plays guitar'], category: 'interests', verb: 'plays' }]],
  ['i mostly play valorant', [{ has: ['Alice', 'valorant'], verb: 'plays' }]],
  [
    "i've been playing piano for 10 years",
    [{ has: ['Alice', 'playing piano', '10 years'], category: 'experiences' }],
  ],
  // relationships and goals
  ["i'm getting married next month", [{ has: ['Alice', 'next month'], category: 'relationships' }]],
  [
    'my wife works at a hospital',
    [{ has: ['Alice', 'wife', 'works at a hospital'], category: 'relationships' }],
  ],
  ['i have a younger brother', [{ has: ['Alice', 'brother'], category: 'relationships' }]],
  ['i have a brother named tom', [{ has: ['Alice', 'brother', 'Tom'], entity: 'Tom', verb: 'knows' }]],
  ['my goal is to run a marathon', [{ has: ['Alice', 'run a marathon'], category: 'goals' }]],
  // several facts in one message
  [
    'i live in seattle and work at this cool startup downtown',
    [
      { has: ['Alice lives in Seattle'], category: 'personal' },
      { has: ['Alice works at a startup'], category: 'professional', not: ['this cool'] },
    ],
  ],
  [
    'hi! my name is dana. i love climbing and i work as a vet',
    [{ has: ['Dana'] }, { has: ['Alice', 'climbing'] }, { has: ['Alice', 'vet'] }],
  ],
];

describe('heuristic extraction: self-statements', () => {
  it.each(CASES)('%s', (content, expected) => {
    const ops = run(batch([content]));
    expectOps(ops, expected);
    for (const op of ops) {
      expect(op.speakerToken).toBeNull();
      expect(op.sourceMessageIndexes).toEqual([1]);
      expect(op.text).not.toMatch(/\b(?:i|my|me)\b/i);
    }
  });

  it('relates to a roster member by token, not as an entity', () => {
    const ops = run(batch(['i love Bob']));
    expect(ops[0]?.relations).toEqual([
      { verb: 'loves', fromToken: 'p0', toToken: 'p1', fromEntity: null, toEntity: null },
    ]);
    expect(ops[0]?.entities).toEqual([]);
  });

  it('relates to every item of a list', () => {
    const ops = run(batch(['i love cooking, reading and hiking']));
    expect(ops[0]?.relations.map((r) => r.toEntity)).toEqual(['cooking', 'reading', 'hiking']);
  });

  it('writes the display name, never the token', () => {
    const ops = run(batch(['i love rust programming']));
    expect(ops[0]?.text).toMatch(/^Alice /);
  });

  it('cites the message each fact came from', () => {
    const ops = run(batch(['lol', 'i play chess', 'i live in oslo']));
    expect(ops.map((o) => o.sourceMessageIndexes)).toEqual([[2], [3]]);
  });
});

import { describe, expect, it } from 'vitest';
import { questionFromRecord } from '../src/longmemeval/dataset.js';
import { LmeTally, scoreRanking, sessionRanking } from '../src/longmemeval/scoring.js';

describe('LongMemEval protocol', () => {
  const record = {
    question_id: 'q1',
    question_type: 'single-session-user',
    question: 'Where did I park?',
    question_date: '2023/05/30 (Tue) 10:00',
    haystack_session_ids: ['answer_s1', 's2'],
    haystack_dates: ['2023/05/20 (Sat) 02:42', '2023/05/21 (Sun) 09:00'],
    haystack_sessions: [
      [
        { role: 'user', content: 'I parked on level 3', has_answer: true },
        { role: 'assistant', content: 'Noted.' },
        { role: 'user', content: 'Thanks a lot' },
      ],
      [{ role: 'user', content: 'What is the weather like?' }],
    ],
  };

  it('names user turns by session and 1-based turn index, renaming non-evidence answer turns', () => {
    const q = questionFromRecord(record);
    const turns = q.sessions.flatMap((s) => s.turns);
    expect(turns.map((t) => t.docId)).toEqual(['answer_s1_1', 'noans_s1_3', 's2_1']);
    expect(q.goldTurns).toEqual(['answer_s1_1']);
    expect(q.goldSessions).toEqual(['answer_s1']);
    expect(turns[0]?.at.toISOString()).toBe('2023-05-20T02:42:00.000Z');
    expect(turns[1]?.sessionKey).toBe('noans_s1');
  });

  it('scores recall_any, recall_all and NDCG as the paper does', () => {
    const gold = new Set(['a', 'b']);
    expect(scoreRanking(['a', 'x', 'b'], gold, 1)).toEqual({ recallAny: 1, recallAll: 0, ndcg: 1 });
    const at3 = scoreRanking(['x', 'a', 'b'], gold, 3);
    expect(at3.recallAll).toBe(1);
    // DCG = 1/log2(2) + 1/log2(3); ideal = 1 + 1/log2(2)
    expect(at3.ndcg).toBeCloseTo((1 + 1 / Math.log2(3)) / 2, 6);
    expect(scoreRanking(['x', 'y'], gold, 2)).toEqual({ recallAny: 0, recallAll: 0, ndcg: 0 });
  });

  it('ranks sessions by their first turn and averages per question type', () => {
    expect(sessionRanking(['s1_1', 's2_4', 's1_3', 's3_1'], (id) => id.replace(/_\d+$/, ''))).toEqual([
      's1',
      's2',
      's3',
    ]);
    const tally = new LmeTally([1]);
    tally.add('t1', { ranked: ['a'], gold: new Set(['a']) }, { ranked: ['s'], gold: new Set(['s']) });
    tally.add('t2', { ranked: ['b'], gold: new Set(['a']) }, { ranked: ['s'], gold: new Set(['s']) });
    const s = tally.summary();
    expect(s['overall']?.turn['1']?.recallAny).toBe(0.5);
    expect(s['t1']?.turn['1']?.recallAny).toBe(1);
    expect(s['overall']?.session['1']?.recallAll).toBe(1);
    expect(s['overall']?.questions).toBe(2);
  });
});

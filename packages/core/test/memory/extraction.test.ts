import { describe, expect, it } from 'vitest';
import type { ExtractionFailed, FactSuperseded } from '../../src/index.js';
import { ALICE, BOB, GUILD, harness, op, ops } from './helpers.js';

const activeTexts = async (h: ReturnType<typeof harness>, subjectId: string | null) =>
  (await h.memory.facts.getAll({ guildId: GUILD, subjectId })).map((f) => f.text).sort();

describe('extraction pipeline', () => {
  it('extracts facts from a batch with roster tokens and never shows the model an id', async () => {
    const h = harness();
    h.llm.script(
      'extraction',
      ops(op({ text: 'Alice lives in Omaha and works at a bakery', category: 'personal', sources: [1] })),
    );
    await h.say(ALICE, 'I live in Omaha and I work at a bakery downtown');
    await h.say(ALICE, 'the sourdough there is honestly the best in town');
    expect(await h.memory.flush()).toBeGreaterThanOrEqual(1);
    const [call] = h.llm.callsFor('extraction');
    const prompt = JSON.stringify(call?.messages);
    expect(prompt).not.toContain(ALICE);
    expect(call?.messages.find((m) => m.role === 'user')?.content).toContain('p0 = "Alice"');
    expect(prompt).toContain('[msg:1]');
    const [fact] = await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE });
    expect(fact).toMatchObject({
      subjectId: ALICE,
      text: 'Alice lives in Omaha and works at a bakery',
      tier: 'long',
      attribution: { type: 'self' },
    });
    expect(fact?.sources[0]?.url).toBe(
      `https://discord.com/channels/${GUILD}/600000000000000001/${fact?.sources[0]?.messageId}`,
    );
    await h.memory.close();
  });

  it('attaches a third-party claim to the person it is about', async () => {
    const h = harness();
    h.llm.script(
      'extraction',
      ops(
        op({
          subject: 'p1',
          speaker: 'p0',
          text: 'Bob was called a hacker by Alice',
          category: 'relationships',
          sources: [1],
        }),
      ),
    );
    await h.say(BOB, 'gg everyone');
    await h.say(ALICE, `<@${BOB}> stop hacking the lobby you absolute hacker, everyone saw it`, {
      mentionIds: [BOB],
    });
    await h.memory.flush();
    const [fact] = await h.memory.facts.getAll({ guildId: GUILD, subjectId: BOB });
    expect(fact).toMatchObject({
      text: 'Bob was called a hacker by Alice',
      attribution: { type: 'third_party', speakerId: ALICE, speakerName: 'Alice' },
    });
    expect(await activeTexts(h, ALICE)).toEqual([]);
    await h.memory.close();
  });

  it('drops operations with unminted tokens, ids in text, questions and low confidence', async () => {
    const h = harness();
    h.llm.script(
      'extraction',
      ops(
        op({ subject: 'p7', text: 'Someone unknown likes potatoes a lot' }),
        op({ text: 'Alice has the id 123456789012345678 on discord' }),
        op({ text: 'Does Alice like potatoes at all?' }),
        op({ text: 'Alice maybe likes potatoes sometimes', confidence: 0.3 }),
        op({ text: 'Alice grows potatoes in her garden' }),
      ),
    );
    await h.say(ALICE, 'i grow potatoes in my garden every single summer, love it');
    await h.memory.flush();
    expect(await activeTexts(h, ALICE)).toEqual(['Alice grows potatoes in her garden']);
    await h.memory.close();
  });

  it('skips chatter without calling the model', async () => {
    const h = harness();
    await h.say(ALICE, 'lol ok');
    await h.say(ALICE, 'haha nice');
    await h.say(ALICE, 'yeah fr');
    await h.memory.flush();
    expect(h.llm.callsFor('extraction')).toHaveLength(0);
    expect((await h.memory.stats({ guildId: GUILD })).processed).toBe(3);
    await h.memory.close();
  });

  it('retires a residence after a move, without a model decision', async () => {
    const h = harness();
    const superseded: FactSuperseded[] = [];
    h.memory.events.on('FactSuperseded', (e) => superseded.push(e));
    h.llm.script(
      'extraction',
      ops(op({ text: 'Alice lives in Omaha', category: 'personal' })),
      ops(op({ text: 'Alice moved to Seattle', category: 'personal' })),
    );
    await h.say(ALICE, 'i live in omaha, been here my whole life honestly');
    await h.memory.flush();
    await h.say(ALICE, 'big news: i moved to seattle last week for a new job');
    await h.memory.flush();
    expect(await activeTexts(h, ALICE)).toEqual(['Alice moved to Seattle']);
    expect(h.llm.callsFor('reconcile')).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 0));
    expect(superseded.map((e) => e.reason)).toContain('contradiction_rule');
    await h.memory.close();
  });

  it('lets a later message in the same batch retire an earlier contradicting one', async () => {
    const h = harness({ batching: { batchSizeMessages: 10 } });
    h.llm.script(
      'extraction',
      ops(
        op({ text: 'Alice moved to Seattle', category: 'personal', sources: [2] }),
        op({ text: 'Alice lives in Omaha', category: 'personal', sources: [1] }),
      ),
    );
    await h.say(ALICE, 'i live in omaha, been here my whole life honestly');
    await h.say(ALICE, 'big news: i moved to seattle last week for a new job');
    await h.memory.flush();
    expect(await activeTexts(h, ALICE)).toEqual(['Alice moved to Seattle']);
    await h.memory.close();
  });

  it('reinforces an exact duplicate instead of storing it twice', async () => {
    const h = harness();
    h.llm.script('extraction', ops(op({ text: 'Alice plays the cello in an orchestra' })));
    await h.say(ALICE, 'rehearsal with my orchestra tonight, cello section all the way');
    await h.memory.flush();
    await h.say(ALICE, 'my cello teacher says my vibrato improved, orchestra is fun');
    await h.memory.flush();
    const facts = await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE });
    expect(facts).toHaveLength(1);
    expect(facts[0]).toMatchObject({ occurrences: 2, strength: 2 });
    await h.memory.close();
  });

  it('sends collisions to one reconcile call and stores the merged text of an UPDATE', async () => {
    const h = harness({ extraction: { collisionFloor: 0.2 } });
    h.llm.script(
      'extraction',
      ops(op({ text: 'Alice works as a nurse at Mercy Hospital', category: 'professional' })),
      ops(op({ text: 'Alice was promoted at Mercy Hospital', category: 'professional' })),
    );
    h.llm.script(
      'reconcile',
      JSON.stringify({
        decisions: [
          {
            candidateIndex: 0,
            kind: 'UPDATE',
            targetId: '0',
            text: 'Alice works as a charge nurse at Mercy Hospital',
            reason: 'promotion',
          },
        ],
      }),
    );
    await h.say(ALICE, 'another long night shift as a nurse at mercy hospital');
    await h.memory.flush();
    await h.say(ALICE, 'got promoted today at mercy hospital!! so happy about it');
    await h.memory.flush();
    expect(h.llm.callsFor('reconcile')).toHaveLength(1);
    expect(await activeTexts(h, ALICE)).toEqual(['Alice works as a charge nurse at Mercy Hospital']);
    await h.memory.close();
  });

  it('repairs malformed model output once', async () => {
    const h = harness();
    h.llm.script(
      'extraction',
      'Sure, here are the facts I found!',
      ops(op({ text: 'Alice collects vintage vinyl records' })),
    );
    await h.say(ALICE, 'just found a first pressing of that album i was hunting for years');
    await h.memory.flush();
    expect(h.llm.callsFor('extraction')).toHaveLength(2);
    expect(await activeTexts(h, ALICE)).toEqual(['Alice collects vintage vinyl records']);
    await h.memory.close();
  });

  it('retries with backoff, dead-letters after the last attempt, and re-drives dead letters', async () => {
    const h = harness({ workers: { enabled: false, maxAttempts: 2, backoffBaseSeconds: 10 } });
    const failures: ExtractionFailed[] = [];
    h.memory.events.on('ExtractionFailed', (e) => failures.push(e));
    h.llm.script('extraction', 'garbage', 'still garbage', 'garbage', 'nope');
    await h.say(ALICE, 'i have been learning japanese for two years now, finally reading manga');
    expect(await h.memory.ops.runPending()).toBe(0);
    await h.memory.flush();
    expect((await h.memory.stats({ guildId: GUILD })).pending).toBe(1);
    h.clock.advanceSeconds(5);
    expect(await h.memory.ops.runPending()).toBe(0);
    h.clock.advanceSeconds(10);
    await h.memory.flush();
    await new Promise((r) => setTimeout(r, 0));
    expect(failures.map((f) => [f.attempt, f.deadLettered, f.errorCode])).toEqual([
      [1, false, 'LLM_OUTPUT_INVALID'],
      [2, true, 'LLM_OUTPUT_INVALID'],
    ]);
    expect((await h.memory.stats({ guildId: GUILD })).deadLetters).toBe(1);
    h.llm.script('extraction', ops(op({ text: 'Alice has been learning Japanese for two years' })));
    expect(await h.memory.ops.retryDeadLetters({ guildId: GUILD })).toBe(1);
    await h.memory.flush();
    expect(await activeTexts(h, ALICE)).toEqual(['Alice has been learning Japanese for two years']);
    expect((await h.memory.stats({ guildId: GUILD })).deadLetters).toBe(0);
    await h.memory.close();
  });

  it('skips extraction past the daily budget and warns past 80 %', async () => {
    const h = harness({ budgets: { guildDailyPromptTokens: 50 } });
    const warnings: string[] = [];
    h.memory.events.on('BudgetWarning', (w) => warnings.push(w.step));
    h.llm.script('extraction', ops(op({ text: 'Alice trains for a marathon in spring' })));
    await h.say(ALICE, 'training for the spring marathon, twenty miles this weekend');
    await h.memory.flush();
    expect(h.llm.callsFor('extraction')).toHaveLength(1);
    await h.say(ALICE, 'my running coach says i should rest more between long runs');
    await h.memory.flush();
    expect(h.llm.callsFor('extraction')).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(warnings).toContain('skip_extraction');
    await h.memory.close();
  });

  it('skips the reconcile call between the warn fraction and the ceiling (reinforces instead)', async () => {
    const h = harness({
      budgets: { guildDailyPromptTokens: 4000, warnFraction: 0.1 },
      extraction: { collisionFloor: 0.2 },
    });
    h.llm.script(
      'extraction',
      ops(op({ text: 'Alice works as a nurse at Mercy Hospital', category: 'professional' })),
      ops(op({ text: 'Alice was promoted at Mercy Hospital', category: 'professional' })),
    );
    h.llm.script(
      'reconcile',
      JSON.stringify({
        decisions: [{ candidateIndex: 0, kind: 'ADD', targetId: null, text: null, reason: 'new' }],
      }),
    );
    await h.say(ALICE, 'another long night shift as a nurse at mercy hospital');
    await h.memory.flush();
    await h.say(ALICE, 'got promoted today at mercy hospital!! so happy about it');
    await h.memory.flush();
    expect(h.llm.callsFor('extraction')).toHaveLength(2);
    expect(h.llm.callsFor('reconcile')).toHaveLength(0);
    const facts = await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE });
    expect(facts.map((f) => [f.text, f.occurrences])).toEqual([
      ['Alice works as a nurse at Mercy Hospital', 2],
    ]);
    await h.memory.close();
  });
});

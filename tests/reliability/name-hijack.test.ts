import { afterAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, MALLORY, mention, openScene, person } from './support/scene.js';
import { closeStores, selectedStores } from './support/stores.js';
import { GUILD_A } from './support/world.js';

afterAll(closeStores);
/**
 * Name hijack (issue 18 §4): a name claimed in chat never takes a name another member holds on the
 * platform (it becomes ambiguous), and a claim about a name two members share is never attached to
 * a guessed one of them: it is dropped and the drop is logged (a reason and a count, no content).
 */

describe.each(selectedStores())('name hijack on the $name store', (store) => {
  it('"my name is Alice" by Mallory makes Alice ambiguous, never Mallory', async () => {
    const scene = openScene(store, { llm: 'heuristic' });
    try {
      await scene.say(ALICE, 'good morning everyone, coffee time');
      await scene.say(MALLORY, 'hi all, my name is Alice by the way');
      await scene.memory.flush();
      const r = await scene.memory.identity.resolve({ guildId: GUILD_A, identifier: 'Alice' });
      expect(r.resolved).toBeNull();
      expect(r.ambiguous).toBe(true);
      expect(r.candidates.map((c) => c.userId).sort()).toEqual([ALICE.id, MALLORY.id].sort());
      // The same through promptContext: the name is dropped with a warning, not resolved to Mallory.
      const ctx = await scene.memory.promptContext({
        guildId: GUILD_A,
        askerId: BOB.id,
        mentionedIds: ['Alice'],
      });
      expect(ctx.warnings).toContain('identity_ambiguous');
      expect(ctx.resolutions.find((x) => x.identifier === 'Alice')?.resolved).toBeNull();
    } finally {
      await scene.close();
    }
  });

  it('a self-claimed name nobody holds still resolves to the claimant', async () => {
    const scene = openScene(store, { llm: 'heuristic' });
    try {
      await scene.say(MALLORY, 'hi all, my name is Malvina by the way');
      await scene.memory.flush();
      const r = await scene.memory.identity.resolve({ guildId: GUILD_A, identifier: 'Malvina' });
      expect(r.resolved).toBe(MALLORY.id);
    } finally {
      await scene.close();
    }
  });

  it('"Bob lives in Berlin" when two members show as Bob: kept on neither, the drop is logged without content', async () => {
    const scene = openScene(store, { llm: 'heuristic' });
    const bob2 = person(7, 'robert_k', 'Bob');
    try {
      await scene.say({ ...BOB, username: 'bobby_99' }, 'I love playing chess with my friends every weekend');
      await scene.say(bob2, 'I love playing tennis with my friends every weekend');
      await scene.say(ALICE, 'Bob lives in Berlin now, he moved there last year');
      await scene.memory.flush();
      expect((await scene.memory.identity.resolve({ guildId: GUILD_A, identifier: 'Bob' })).ambiguous).toBe(
        true,
      );
      const facts = (await scene.memory.admin.exportGuild({ guildId: GUILD_A })).facts;
      expect(facts.filter((f) => f.text.includes('Berlin'))).toEqual([]);
      const drops = scene.logs.filter(
        (l) => l.event === 'extraction.rejected' && l.data?.['ambiguous_subject'],
      );
      expect(drops).toHaveLength(1);
      expect(JSON.stringify(scene.logs)).not.toMatch(/Berlin|chess|tennis/);
    } finally {
      await scene.close();
    }
  });

  it('with a mention the same claim attaches to the member mentioned', async () => {
    const scene = openScene(store, { llm: 'heuristic' });
    const bob2 = person(7, 'robert_k', 'Bob');
    try {
      await scene.say({ ...BOB, username: 'bobby_99' }, 'I love playing chess with my friends every weekend');
      await scene.say(bob2, 'I love playing tennis with my friends every weekend');
      await scene.say(ALICE, `${mention(bob2)} lives in Berlin now, he moved there last year`);
      await scene.memory.flush();
      const facts = (await scene.memory.admin.exportGuild({ guildId: GUILD_A })).facts;
      expect(
        facts.filter((f) => f.text.includes('Berlin')).map((f) => [f.subjectId, f.attribution.speakerId]),
      ).toEqual([[bob2.id, ALICE.id]]);
    } finally {
      await scene.close();
    }
  });
});

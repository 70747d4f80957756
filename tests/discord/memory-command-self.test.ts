import { afterEach, describe, expect, it } from 'vitest';
import { click, componentByLabel, isEphemeral, learn, run, selectMenu } from './command-helpers.js';
import { type Harness, ids, startHarness } from './harness.js';

const G = ids.guild;

describe('/memory: your own data', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('remember stores a manual fact about the invoker; alias adds a name', async () => {
    h = await startHarness();
    const remembered = await run(h, ids.bob, 'remember', { text: 'I am learning Portuguese' });
    expect(isEphemeral(remembered.reply)).toBe(true);
    expect(remembered.reply.content).toContain('Noted');
    const facts = await h.memory.facts.getAll({ guildId: G, subjectId: ids.bob });
    expect(facts.map((f) => [f.text, f.tier])).toEqual([['I am learning Portuguese', 'core']]);
    // Said in a channel: the fact is shown where that channel's conversations may be shown.
    expect(facts[0]?.channels).toEqual([{ channelId: ids.general, parentId: null }]);
    // The command used the interaction id as its idempotency key: the same interaction handled
    // again (a retry, a second bot instance) returns that fact instead of reinforcing it.
    const replayed = await h.memory.facts.remember({
      guildId: G,
      subjectId: ids.bob,
      text: 'I am learning Portuguese',
      actorId: ids.bob,
      speakerId: ids.bob,
      idempotencyKey: `discord-interaction:${remembered.handle.id}`,
      channel: { channelId: ids.general, parentId: null },
    });
    expect([replayed.id, replayed.occurrences]).toEqual([facts[0]?.id, 1]);

    const alias = await run(h, ids.bob, 'alias', { name: 'Bobby Tables' });
    expect(alias.reply.content).toContain('Bobby Tables');
    const { aliases } = await h.memory.admin.exportUser({ guildId: G, userId: ids.bob });
    expect(aliases.map((a) => a.alias)).toContain('bobby tables');
  });

  it('optout on stops learning from the invoker; off resumes', async () => {
    h = await startHarness();
    const on = await run(h, ids.bob, 'optout', { state: 'on' });
    expect(on.reply.content).toMatch(/won't learn/);
    expect(await h.memory.admin.getOptOut({ guildId: G, userId: ids.bob })).toBe(true);
    expect((await run(h, ids.bob, 'remember', { text: 'I like jazz' })).reply.content).toMatch(/opted out/);
    const off = await run(h, ids.bob, 'optout', { state: 'off' });
    expect(off.reply.content).toMatch(/learn from your messages again/);
    expect(await h.memory.admin.getOptOut({ guildId: G, userId: ids.bob })).toBe(false);
  });

  it('export attaches a JSON file with only the invoker’s data', async () => {
    h = await startHarness();
    await learn(h, ids.alice, ['I live in Oslo', `<@${ids.bob}> loves jazz`]);
    await learn(h, ids.bob, ['I work at a bakery']);
    const { reply } = await run(h, ids.alice, 'export');
    expect(isEphemeral(reply)).toBe(true);
    expect(reply.files).toHaveLength(1);
    const file = reply.files[0];
    expect(file?.name).toBe(`memory-export-${G}-${ids.alice}.json`);
    const data = JSON.parse(file?.data.toString('utf8') ?? '');
    expect(data).toMatchObject({ format: 'permafrost.user-export', guildId: G, userId: ids.alice });
    expect(data.messages.map((m: { authorId: string }) => m.authorId)).toEqual([ids.alice, ids.alice]);
    expect(data.factsAbout.length).toBeGreaterThan(0);
    expect(JSON.stringify(data)).not.toContain('bakery');
    for (const f of data.factsAbout) expect(f.subjectId).toBe(ids.alice);
  });

  it('forget: pick a fact, confirm, and only that fact is invalidated', async () => {
    h = await startHarness();
    await learn(h, ids.alice, ['I live in Oslo', 'I play the cello every weekend']);
    const before = await h.memory.facts.getAll({ guildId: G, subjectId: ids.alice });
    const cello = before.find((f) => f.text.includes('cello'));
    expect(before).toHaveLength(2);

    const picker = await run(h, ids.alice, 'forget');
    expect(isEphemeral(picker.reply)).toBe(true);
    expect(picker.reply.content).toContain('Which memory should I forget?');
    const menu = selectMenu(picker.reply.message);
    expect(menu.options?.map((o) => o.value).sort()).toEqual(before.map((f) => f.id).sort());

    const asked = await click(h, picker.reply.message, menu, ids.alice, [cello?.id ?? '']);
    expect(asked.reply.content).toMatch(/Forget this memory\?[\s\S]*cello/);
    const done = await click(h, asked.message, componentByLabel(asked.message, 'Forget it'), ids.alice);
    expect(done.reply.content).toMatch(/Forgotten/);
    expect(done.message?.components ?? []).toEqual([]);

    const after = await h.memory.facts.getAll({ guildId: G, subjectId: ids.alice });
    expect(after.map((f) => f.id)).toEqual(before.filter((f) => f !== cello).map((f) => f.id));
    const history = await h.memory.facts.history({ guildId: G, factId: cello?.id ?? '' });
    expect(history.map((e) => e.kind)).toContain('invalidated');
  });

  it('forget: cancel, someone else’s click and an expired confirmation change nothing', async () => {
    h = await startHarness({ command: { confirmTimeoutMs: 400 } });
    await learn(h, ids.alice, ['I live in Oslo']);
    const [fact] = await h.memory.facts.getAll({ guildId: G, subjectId: ids.alice });

    const picker = await run(h, ids.alice, 'forget');
    const cancelled = await click(
      h,
      picker.reply.message,
      componentByLabel(picker.reply.message, 'Cancel'),
      ids.alice,
    );
    expect(cancelled.reply.content).toMatch(/Cancelled/);

    const second = await run(h, ids.alice, 'forget');
    const asked = await click(h, second.reply.message, selectMenu(second.reply.message), ids.alice, [
      fact?.id ?? '',
    ]);
    const intruder = await click(h, asked.message, componentByLabel(asked.message, 'Forget it'), ids.bob);
    expect(intruder.handle.callback?.type).toBe(4);
    expect(isEphemeral(intruder.reply)).toBe(true);
    expect(intruder.reply.content).toMatch(/Only the member who ran the command/);

    await new Promise((r) => setTimeout(r, 450));
    const late = await click(h, asked.message, componentByLabel(asked.message, 'Forget it'), ids.alice);
    expect(late.reply.content).toMatch(/expired/);
    expect(await h.memory.facts.getAll({ guildId: G, subjectId: ids.alice })).toHaveLength(1);
  });

  it('forget pages through more than 25 facts and says when there is nothing', async () => {
    h = await startHarness();
    expect((await run(h, ids.carol, 'forget')).reply.content).toMatch(/don't remember anything/);
    for (let i = 0; i < 30; i++)
      await h.memory.facts.remember({
        guildId: G,
        subjectId: ids.carol,
        text: `Carol has visited city number ${i}`,
      });
    const picker = await run(h, ids.carol, 'forget');
    expect(selectMenu(picker.reply.message).options).toHaveLength(25);
    const older = await click(
      h,
      picker.reply.message,
      componentByLabel(picker.reply.message, 'Older'),
      ids.carol,
    );
    expect(selectMenu(older.message).options).toHaveLength(5);
    expect(older.message?.content).toContain('city number 0');
  });

  it('purge: shows counts, deletes everything of the invoker after confirmation, nobody else', async () => {
    h = await startHarness();
    await learn(h, ids.alice, ['I live in Oslo', 'I play the cello every weekend']);
    await learn(h, ids.bob, ['I work at a bakery']);
    const asked = await run(h, ids.alice, 'purge');
    expect(isEphemeral(asked.reply)).toBe(true);
    expect(asked.reply.content).toMatch(/2 facts, 2 messages/);
    expect(await h.memory.facts.getAll({ guildId: G, subjectId: ids.alice })).toHaveLength(2);

    const done = await click(
      h,
      asked.reply.message,
      componentByLabel(asked.reply.message, 'Delete everything'),
      ids.alice,
    );
    expect(done.reply.content).toMatch(/Done\. I deleted 2 facts, 2 messages/);
    const left = await h.memory.admin.exportUser({ guildId: G, userId: ids.alice });
    expect([left.factsAbout, left.messages, left.aliases]).toEqual([[], [], []]);
    expect(await h.memory.facts.getAll({ guildId: G, subjectId: ids.bob })).toHaveLength(1);
  });
});

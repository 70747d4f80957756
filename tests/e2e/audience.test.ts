import { type Audience, createMemory, type Memory, type MessageEventInput } from '@permafrost/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectedStores } from './stores.js';

/**
 * Issue #23 §1–2: what was learned in a channel is shown only where the audience policy allows.
 * A test guild with #general (public), #mods (private), a thread of #general and a DM, read through
 * every read of the public API on every selected store, with core's default policy
 * (`access.publicChannelIds: [general]`).
 */
const GUILD = '520000000000000001';
const GENERAL = '620000000000000001';
const MODS = '620000000000000002';
const THREAD = '620000000000000003';
const [ALICE, BOB, CAROL] = ['121000000000000001', '121000000000000002', '121000000000000003'];
const DM_GUILD = `dm:${CAROL}`;
const DM_CHANNEL = '620000000000000009';

const inGeneral: Audience = { channelId: GENERAL, requesterId: BOB };
const inMods: Audience = { channelId: MODS, requesterId: ALICE };

let n = 0;
const base = Date.UTC(2026, 7, 24, 12);
const say = (
  authorId: string,
  channelId: string,
  content: string,
  extra: Partial<MessageEventInput> = {},
) => ({
  messageId: `72000000000${String(++n).padStart(7, '0')}`,
  guildId: GUILD,
  channelId,
  authorId,
  content,
  createdAt: new Date(base + n * 60_000),
  authorUsername: { [ALICE]: 'alice', [BOB]: 'bob', [CAROL]: 'carol' }[authorId] ?? 'x',
  authorDisplayName: { [ALICE]: 'Alice', [BOB]: 'Bob', [CAROL]: 'Carol' }[authorId] ?? 'X',
  ...extra,
});

const texts = (facts: readonly { fact: { text: string } }[]) =>
  facts.map((f) => f.fact.text.toLowerCase()).join(' | ');

for (const store of selectedStores()) {
  describe(`audiences on ${store.name} (core's default policy)`, () => {
    let memory: Memory;

    beforeAll(async () => {
      memory = createMemory({
        storage: store.url(),
        llm: 'heuristic',
        workers: { enabled: false },
        access: { publicChannelIds: [GENERAL] },
      });
      await memory.observeMany([
        say(ALICE, MODS, 'I work at the hospital as a nurse'),
        say(ALICE, GENERAL, 'I love hiking in the mountains'),
        say(BOB, THREAD, 'I live in Lisbon these days', { threadParentId: GENERAL }),
        say(BOB, MODS, 'I love the hospital gossip channel'),
        say(CAROL, DM_CHANNEL, 'my favorite food is ramen', { guildId: DM_GUILD }),
      ]);
      await memory.flush();
      await memory.facts.remember({
        guildId: GUILD,
        subjectId: ALICE,
        text: 'Alice organises the monthly board game night',
      });
    }, 60_000);
    afterAll(async () => {
      await memory?.close({ drain: false });
    });

    it('facts keep the channels they were learned in', async () => {
      const facts = await memory.facts.getAll({ guildId: GUILD, subjectId: ALICE });
      const byText = new Map(facts.map((f) => [f.text.toLowerCase(), f.channels.map((c) => c.channelId)]));
      expect([...byText.entries()].find(([t]) => t.includes('nurse'))?.[1]).toEqual([MODS]);
      expect([...byText.entries()].find(([t]) => t.includes('hiking'))?.[1]).toEqual([GENERAL]);
      expect([...byText.entries()].find(([t]) => t.includes('board game'))?.[1]).toEqual([]);
      const [lisbon] = (await memory.facts.getAll({ guildId: GUILD, subjectId: BOB })).filter((f) =>
        f.text.includes('Lisbon'),
      );
      expect(lisbon?.channels).toEqual([{ channelId: THREAD, parentId: GENERAL }]);
    });

    it('promptContext: a question in #general never gets what was said in #mods', async () => {
      const general = await memory.promptContext({
        guildId: GUILD,
        askerId: BOB,
        text: 'what does alice do for work?',
        mentionedIds: [ALICE],
        audience: inGeneral,
      });
      expect(general.injectionBlock.toLowerCase()).not.toContain('nurse');
      expect(general.injectionBlock.toLowerCase()).not.toContain('hospital');
      expect(general.injectionBlock).toContain('hiking');
      expect(general.injectionBlock).toContain('board game');
      expect(general.injectionBlock).toContain('Lisbon');
      expect(general.warnings).not.toContain('audience_required');

      const mods = await memory.promptContext({
        guildId: GUILD,
        askerId: ALICE,
        text: 'what does alice do for work?',
        mentionedIds: [ALICE],
        audience: inMods,
      });
      expect(mods.injectionBlock).toContain('nurse');
      expect(mods.injectionBlock).toContain('hiking');
    });

    it('a read without an audience gets only channel-free facts and a warning', async () => {
      const ctx = await memory.promptContext({ guildId: GUILD, askerId: ALICE, text: 'tell me about alice' });
      expect(ctx.warnings).toContain('audience_required');
      expect(ctx.injectionBlock).toContain('board game');
      expect(ctx.injectionBlock).not.toContain('hiking');
      const recalled = await memory.recall({ guildId: GUILD, text: 'alice hiking nurse board game' });
      expect(recalled.warnings).toContain('audience_required');
      expect(recalled.facts.every((f) => f.fact.channels.length === 0)).toBe(true);
    });

    it('recall and facts.search filter by the audience', async () => {
      const general = await memory.recall({
        guildId: GUILD,
        text: 'hospital nurse work',
        audience: inGeneral,
      });
      expect(texts(general.facts)).not.toContain('nurse');
      const mods = await memory.recall({ guildId: GUILD, text: 'hospital nurse work', audience: inMods });
      expect(texts(mods.facts)).toContain('nurse');
      const searched = await memory.facts.search({
        guildId: GUILD,
        text: 'hospital nurse',
        audience: inGeneral,
      });
      expect(texts(searched.facts)).not.toContain('nurse');
      // The thread of #mods' readers: a thread of #general is visible wherever #general is.
      const thread = await memory.recall({ guildId: GUILD, text: 'Lisbon', audience: { channelId: THREAD } });
      expect(texts(thread.facts)).toContain('lisbon');
    });

    it('conversation.search and authorHistory show only visible messages', async () => {
      const hidden = await memory.conversation.search({
        guildId: GUILD,
        text: 'hospital nurse',
        audience: inGeneral,
      });
      expect(hidden.messages.map((m) => m.message.channelId)).not.toContain(MODS);
      const shown = await memory.conversation.search({
        guildId: GUILD,
        text: 'hospital nurse',
        audience: inMods,
      });
      expect(shown.messages.map((m) => m.message.content)).toContain('I work at the hospital as a nurse');
      const history = await memory.conversation.authorHistory({
        guildId: GUILD,
        authorId: ALICE,
        audience: inGeneral,
      });
      expect(history.map((m) => m.channelId)).toEqual([GENERAL]);
      expect(await memory.conversation.authorHistory({ guildId: GUILD, authorId: ALICE })).toEqual([]);
    });

    it('graph and insights only rest on visible facts and messages', async () => {
      const general = await memory.graph.relationsOf({ guildId: GUILD, userId: ALICE, audience: inGeneral });
      const mods = await memory.graph.relationsOf({ guildId: GUILD, userId: ALICE, audience: inMods });
      const targets = (edges: typeof general) => edges.map((e) => e.dst.id).join(' ');
      expect(targets(mods)).toContain('hospital');
      expect(targets(general)).not.toContain('hospital');
      const prefs = await memory.insights.preferences({ guildId: GUILD, userId: ALICE, audience: inGeneral });
      expect(prefs.map((p) => p.target).join(' ')).not.toContain('hospital');
      const activity = await memory.insights.activity({ guildId: GUILD, days: 3650, audience: inGeneral });
      const everywhere = await memory.insights.activity({ guildId: GUILD, days: 3650, audience: inMods });
      expect(activity.messages).toBeLessThan(everywhere.messages);
    });

    it('context() answers for its own channel and never serves another channel its cached block', async () => {
      const question = {
        guildId: GUILD,
        askerId: ALICE,
        text: 'what do you remember about alice?',
        mode: 'deep' as const,
      };
      const mods = await memory.context({ ...question, channelId: MODS });
      expect(mods.block).toContain('nurse');
      const general = await memory.context({ ...question, channelId: GENERAL });
      expect(general.cached).toBe(false);
      expect(general.block).not.toContain('nurse');
    });

    it('a DM is its own guild: its facts reach that DM only', async () => {
      const dm = await memory.promptContext({
        guildId: DM_GUILD,
        askerId: CAROL,
        text: 'what food do I like?',
        audience: { channelId: DM_CHANNEL, requesterId: CAROL },
      });
      expect(dm.injectionBlock).toContain('Ramen');
      const guild = await memory.promptContext({
        guildId: GUILD,
        askerId: CAROL,
        text: 'food',
        audience: inGeneral,
      });
      expect(guild.injectionBlock.toLowerCase()).not.toContain('ramen');
    });

    it('an export keeps the channels and an old export gets them from its sources', async () => {
      const doc = await memory.admin.exportGuild({ guildId: GUILD });
      const nurse = doc.facts.find((f) => f.text.includes('nurse'));
      expect(nurse?.channels).toEqual([{ channelId: MODS, parentId: null }]);
      const old = JSON.parse(JSON.stringify(doc)) as { guildId: string; facts: Record<string, unknown>[] };
      for (const f of old.facts) delete f['channels'];
      const copy = createMemory({ storage: 'memory', llm: null, access: { publicChannelIds: [GENERAL] } });
      try {
        await copy.admin.importGuild({ data: old });
        const facts = await copy.facts.getAll({ guildId: GUILD, subjectId: ALICE });
        expect(facts.find((f) => f.text.includes('nurse'))?.channels).toEqual([
          { channelId: MODS, parentId: null },
        ]);
        const general = await copy.recall({ guildId: GUILD, text: 'nurse hospital', audience: inGeneral });
        expect(texts(general.facts)).not.toContain('nurse');
      } finally {
        await copy.close();
      }
    });
  });
}

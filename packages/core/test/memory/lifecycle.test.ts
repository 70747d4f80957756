import { describe, expect, it } from 'vitest';
import { ALICE, GUILD, harness, op, ops } from './helpers.js';

describe('lifecycle maintenance', () => {
  it('expires TTLs, forgets decayed facts and keeps manual ones', async () => {
    const h = harness();
    h.llm.script(
      'extraction',
      ops(
        op({ text: 'Alice is going to a concert tonight', category: 'experiences' }),
        op({ text: 'Alice likes the band Wolf Alice', category: 'interests' }),
      ),
    );
    await h.say(ALICE, 'going to see wolf alice tonight, i love that band so much');
    await h.memory.flush();
    await h.memory.facts.remember({
      guildId: GUILD,
      subjectId: ALICE,
      text: 'Alice prefers to be called Ali',
    });
    expect((await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE })).length).toBe(3);
    h.clock.advanceDays(4);
    const r1 = await h.memory.ops.maintenance({ guildId: GUILD });
    expect(r1).toMatchObject({ ran: true, expired: 1, forgotten: 0 });
    h.clock.advanceDays(30);
    const r2 = await h.memory.ops.maintenance({ guildId: GUILD });
    expect(r2).toMatchObject({ ran: true, forgotten: 1 });
    expect((await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE })).map((f) => f.text)).toEqual([
      'Alice prefers to be called Ali',
    ]);
    const stats = await h.memory.stats({ guildId: GUILD });
    expect(stats).toMatchObject({ totalFacts: 3, activeFacts: 1 });
    await h.memory.close();
  });

  it('runs at most once per interval unless forced', async () => {
    const h = harness({ lifecycle: { maintenanceIntervalSeconds: 3600 } });
    await h.memory.facts.remember({ guildId: GUILD, subjectId: ALICE, text: 'Alice likes green tea' });
    expect((await h.memory.ops.maintenance({ guildId: GUILD, force: false })).ran).toBe(true);
    expect((await h.memory.ops.maintenance({ guildId: GUILD, force: false })).ran).toBe(false);
    h.clock.advanceSeconds(3601);
    expect((await h.memory.ops.maintenance({ guildId: GUILD, force: false })).ran).toBe(true);
    await h.memory.close();
  });

  it('prunes over the per-user cap, weakest first, manual facts last', async () => {
    const h = harness({ lifecycle: { maxFactsPerUser: 10 } });
    h.llm.script(
      'extraction',
      ops(
        ...Array.from({ length: 12 }, (_, i) => op({ text: `Alice enjoys hobby number ${i} quite a lot` })),
      ),
    );
    await h.memory.facts.remember({ guildId: GUILD, subjectId: ALICE, text: 'Alice is vegetarian' });
    await h.say(ALICE, 'i have way too many hobbies, let me list all of them for you now');
    await h.memory.flush();
    const before = await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE, limit: 100 });
    expect(before.length).toBe(13);
    const r = await h.memory.ops.maintenance({ guildId: GUILD });
    expect(r.pruned).toBe(3);
    const after = await h.memory.facts.getAll({ guildId: GUILD, subjectId: ALICE, limit: 100 });
    expect(after.length).toBe(10);
    expect(after.some((f) => f.text === 'Alice is vegetarian')).toBe(true);
    await h.memory.close();
  });
});

describe('export and import', () => {
  it('round-trips a guild into a fresh memory and re-embeds', async () => {
    const a = harness();
    a.llm.script(
      'extraction',
      ops(
        op({
          text: 'Alice lives in Omaha',
          category: 'personal',
          entities: [{ name: 'Omaha', kind: 'place' }],
          relations: [
            { verb: 'lives_in', fromToken: 'p0', toToken: null, fromEntity: null, toEntity: 'Omaha' },
          ],
        }),
      ),
    );
    await a.say(ALICE, 'i live in omaha, been here forever');
    await a.memory.flush();
    await a.memory.facts.remember({
      guildId: GUILD,
      subjectId: ALICE,
      text: 'Alice prefers tea over coffee',
    });
    await a.memory.admin.setOptOut({ guildId: GUILD, userId: 'u-quiet', optedOut: true });
    const optedOutAt = a.clock.now().toISOString();
    a.clock.advanceDays(3);
    const doc = JSON.parse(JSON.stringify(await a.memory.admin.exportGuild({ guildId: GUILD })));
    expect(doc).toMatchObject({
      format: 'permafrost.guild-export',
      version: 2,
      guildId: GUILD,
      optOuts: [{ userId: 'u-quiet', at: optedOutAt }],
    });
    const b = harness();
    const counts = await b.memory.admin.importGuild({ data: doc });
    expect(counts).toMatchObject({ facts: 2, relations: 1, entities: 1 });
    const again = JSON.parse(JSON.stringify(await b.memory.admin.exportGuild({ guildId: GUILD })));
    expect({ ...again, exportedAt: null }).toEqual({ ...doc, exportedAt: null });
    expect(await b.memory.ops.reindex()).toEqual({ guilds: 1, vectors: 2 });
    await expect(b.memory.admin.importGuild({ data: { ...doc, version: 99 } })).rejects.toMatchObject({
      code: 'SCHEMA_INVALID',
    });
    // A version 1 document (bare opt-out ids) still imports; its opt-outs date from the export.
    const v1 = { ...doc, version: 1, optOuts: ['u-quiet'] };
    await expect(
      b.memory.admin.importGuild({ data: { ...v1, optOuts: [{ userId: 'x' }] } }),
    ).rejects.toMatchObject({ code: 'SCHEMA_INVALID' });
    const c = harness();
    expect(await c.memory.admin.importGuild({ data: v1 })).toMatchObject({ facts: 2, relations: 1 });
    const fromV1 = JSON.parse(JSON.stringify(await c.memory.admin.exportGuild({ guildId: GUILD })));
    expect(fromV1.optOuts).toEqual([{ userId: 'u-quiet', at: doc.exportedAt }]);
    expect(await c.memory.admin.getOptOut({ guildId: GUILD, userId: 'u-quiet' })).toBe(true);
    await a.memory.close();
    await b.memory.close();
    await c.memory.close();
  });
});

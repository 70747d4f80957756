import type { LogEvent } from '@permafrost/core';
import { memoryCommand } from '@permafrost/discord';
import { afterEach, describe, expect, it } from 'vitest';
import { isEphemeral, learn, run } from './command-helpers.js';
import { type Harness, ids, startHarness } from './harness.js';

const G = ids.guild;
const link = (messageId: string) => `https://discord.com/channels/${G}/${ids.general}/${messageId}`;

describe('/memory: reading', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('registers one command with the eleven subcommands', async () => {
    h = await startHarness();
    const json = memoryCommand();
    expect(json.name).toBe('memory');
    expect(json.options?.map((o) => o.name)).toEqual([
      'show',
      'lookup',
      'related',
      'shared',
      'remember',
      'forget',
      'alias',
      'optout',
      'export',
      'purge',
      'import',
    ]);
    expect(h.emu.commands().map((c) => c.name)).toEqual(['memory']);
  });

  it('show lists your own facts, ephemeral, with jump links to their source messages', async () => {
    h = await startHarness();
    const [hiking, oslo] = await learn(h, ids.alice, ['I love hiking in the mountains', 'I live in Oslo']);
    const { handle, reply } = await run(h, ids.alice, 'show');
    expect(handle.callback?.type).toBe(5);
    expect(isEphemeral(reply)).toBe(true);
    expect(reply.content).toContain('What I remember about Ally');
    expect(reply.content).toMatch(/hiking in the mountains/);
    expect(reply.content).toContain(`(<${link(hiking ?? '')}>)`);
    expect(reply.content).toContain(`(<${link(oslo ?? '')}>)`);
    expect(reply.content).toContain('Also known as');
  });

  it('show of another member is refused politely without the admin role or Manage Server', async () => {
    h = await startHarness({ command: { adminRoleIds: [ids.helperRole] } });
    await learn(h, ids.alice, ['I play the cello every weekend']);
    const denied = await run(h, ids.bob, 'show', { user: ids.alice });
    expect(isEphemeral(denied.reply)).toBe(true);
    expect(denied.reply.content).toMatch(/only look at your own memories/);
    expect(denied.reply.content).not.toContain('cello');
    for (const admin of [ids.mo, ids.carol, ids.owen]) {
      const allowed = await run(h, admin, 'show', { user: ids.alice });
      expect(allowed.reply.content).toContain('cello');
    }
  });

  it('adminPermission null leaves only the configured roles', async () => {
    h = await startHarness({ command: { adminPermission: null } });
    await learn(h, ids.alice, ['I play the cello every weekend']);
    expect((await run(h, ids.mo, 'show', { user: ids.alice })).reply.content).toMatch(
      /only look at your own/,
    );
  });

  it('a long list is split into messages under 2,000 characters', async () => {
    h = await startHarness();
    for (let i = 0; i < 40; i++)
      await h.memory.facts.remember({
        guildId: G,
        subjectId: ids.bob,
        text: `Bob keeps a detailed notebook about hobby number ${i} and talks about it at length with friends, neighbours and anyone else who asks`,
      });
    const { handle, reply } = await run(h, ids.bob, 'show');
    const followup = await handle.waitForFollowup(2);
    const parts = [reply.content, ...handle.followups.map((f) => f.message?.content ?? '')];
    expect(parts.length).toBeGreaterThanOrEqual(3);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(2000);
    expect(isEphemeral(followup.message)).toBe(true);
    const all = parts.join('\n');
    for (let i = 0; i < 40; i++) expect(all).toContain(`hobby number ${i} `);
  });

  it('lookup finds a member by a name and refuses or declines to guess', async () => {
    h = await startHarness();
    await learn(h, ids.alice, ['I work at a bakery']);
    await learn(h, ids.bob, ['hello there everyone']);
    await learn(h, ids.carol, ['hi all, nice to meet you']);
    expect((await run(h, ids.alice, 'lookup', { name: 'Ally' })).reply.content).toContain('bakery');
    expect((await run(h, ids.bob, 'lookup', { name: 'ally' })).reply.content).toMatch(
      /only look at your own/,
    );
    expect((await run(h, ids.mo, 'lookup', { name: `<@${ids.alice}>` })).reply.content).toContain('bakery');
    expect((await run(h, ids.mo, 'lookup', { name: 'Zebediah' })).reply.content).toMatch(/don't know anyone/);
    await run(h, ids.bob, 'alias', { name: 'Sam' });
    await run(h, ids.carol, 'alias', { name: 'Sam' });
    const ambiguous = (await run(h, ids.mo, 'lookup', { name: 'sam' })).reply.content;
    expect(ambiguous).toMatch(/more than one member/);
    expect(ambiguous).toContain(`<@${ids.bob}>`);
    expect(ambiguous).toContain(`<@${ids.carol}>`);
  });

  it('related lists relations; shared lists what two members have in common', async () => {
    h = await startHarness();
    await learn(h, ids.alice, ['I really like pizza', 'I love hiking in the mountains']);
    await learn(h, ids.bob, ['I love pizza so much', 'I hate hiking']);
    const related = (await run(h, ids.alice, 'related', { user: ids.alice })).reply.content;
    expect(related).toContain(`<@${ids.alice}> —likes→ pizza (positive)`);
    const shared = (await run(h, ids.alice, 'shared', { a: ids.alice, b: ids.bob })).reply.content;
    expect(shared).toContain('pizza');
    expect((await run(h, ids.carol, 'shared', { a: ids.alice, b: ids.bob })).reply.content).toMatch(
      /only look at your own/,
    );
    expect((await run(h, ids.carol, 'related', { user: ids.bob })).reply.content).toMatch(
      /only look at your own/,
    );
    expect((await run(h, ids.mo, 'related', { user: ids.bob })).reply.content).toContain('pizza');
  });

  it('a failing memory gets an apology, an error log without content, and no crash', async () => {
    const events: LogEvent[] = [];
    h = await startHarness({ command: { logger: (e) => events.push(e) } });
    h.memory.facts.listForSubject = async () => {
      throw new Error('disk on fire');
    };
    const { reply } = await run(h, ids.alice, 'show');
    expect(isEphemeral(reply)).toBe(true);
    expect(reply.content).toMatch(/Something went wrong/);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      level: 'error',
      event: 'discord.command_failed',
      data: { code: 'INTERNAL' },
    });
    expect(h.emu.errors).toEqual([]);
  });
});

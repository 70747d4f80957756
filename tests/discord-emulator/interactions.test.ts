import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  type ChatInputCommandInteraction,
  type Client,
  Events,
  type Interaction,
  MessageFlags,
  SlashCommandBuilder,
} from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClientPool, ids, startTestEmulator } from './fixtures.js';
import type { DiscordEmulator } from './index.js';

const memoryCommand = new SlashCommandBuilder()
  .setName('memory')
  .setDescription('Inspect what the bot remembers')
  .addSubcommand((s) =>
    s
      .setName('show')
      .setDescription('Show memories about a user')
      .addUserOption((o) => o.setName('user').setDescription('Whose memories').setRequired(true))
      .addIntegerOption((o) => o.setName('limit').setDescription('How many')),
  )
  .addSubcommand((s) => s.setName('export').setDescription('Export as JSON'))
  .addSubcommand((s) => s.setName('forget').setDescription('Forget everything'));

/** Runs `handler` for the next chat-input command / button interaction and captures its errors. */
function handleNext(client: Client, handler: (i: Interaction) => Promise<unknown>): Promise<void> {
  return new Promise((resolve, reject) => {
    client.once(Events.InteractionCreate, (interaction) => {
      handler(interaction).then(() => resolve(), reject);
    });
  });
}

describe('discord emulator: application commands and interactions', () => {
  let emu: DiscordEmulator;
  let client: Client<true>;
  const pool = new ClientPool();

  beforeEach(async () => {
    emu = await startTestEmulator();
    client = await pool.connect(emu);
  });

  afterEach(async () => {
    await pool.destroyAll();
    await emu.close();
  });

  it('registers global and guild slash commands over REST', async () => {
    const global = await client.application.commands.set([memoryCommand.toJSON()]);
    const guild = await client.guilds.cache
      .get(ids.guild)
      ?.commands.set([{ name: 'ping', description: 'Pong!' }]);

    expect([...global.values()].map((c) => c.name)).toEqual(['memory']);
    expect(global.first()?.options.map((o) => o.name)).toEqual(['show', 'export', 'forget']);
    expect(guild?.first()?.guildId).toBe(ids.guild);
    expect(emu.commands().map((c) => c.name)).toEqual(['memory']);
    expect(emu.commands(ids.guild).map((c) => c.name)).toEqual(['ping']);
    expect(emu.requestsTo('PUT', `/applications/${ids.bot}/commands`)).toHaveLength(1);
    expect(emu.requestsTo('PUT', `/applications/${ids.bot}/guilds/${ids.guild}/commands`)).toHaveLength(1);
    expect(() =>
      emu.invokeCommand({
        channelId: ids.general,
        userId: ids.bob,
        name: 'memory',
        subcommand: 'show',
        options: { nope: 1 },
      }),
    ).toThrow(/no option "nope"/);
    expect(() =>
      emu.invokeCommand({ channelId: ids.general, userId: ids.bob, name: 'memory', subcommand: 'purge' }),
    ).toThrow(/no subcommand "purge"/);
    await expect(
      client.application.commands.create({ name: 'Bad Name', description: 'x' }),
    ).rejects.toMatchObject({ code: 50035 });
  });

  it('dispatches subcommands with resolved user options and records an ephemeral reply', async () => {
    await client.application.commands.set([memoryCommand.toJSON()]);
    const seen: Record<string, unknown> = {};
    const handled = handleNext(client, async (interaction) => {
      const i = interaction as ChatInputCommandInteraction;
      Object.assign(seen, {
        chatInput: i.isChatInputCommand(),
        name: i.commandName,
        sub: i.options.getSubcommand(),
        user: i.options.getUser('user', true).id,
        nick: (i.options.getMember('user') as { nickname: string | null } | null)?.nickname,
        limit: i.options.getInteger('limit'),
        invoker: i.user.id,
        channel: i.channelId,
        guild: i.guildId,
        commandId: i.commandId,
      });
      await i.reply({ content: 'Ally likes tea', flags: MessageFlags.Ephemeral });
    });
    const itx = emu.invokeCommand({
      channelId: ids.general,
      userId: ids.bob,
      name: 'memory',
      subcommand: 'show',
      options: { user: ids.alice, limit: 5 },
    });
    const callback = await itx.response();
    await handled;

    expect(seen).toEqual({
      chatInput: true,
      name: 'memory',
      sub: 'show',
      user: ids.alice,
      nick: 'Ally',
      limit: 5,
      invoker: ids.bob,
      channel: ids.general,
      guild: ids.guild,
      commandId: emu.commands()[0]?.id,
    });
    expect(callback.type).toBe(4);
    expect(callback.data).toMatchObject({ content: 'Ally likes tea', flags: 64 });
    expect((await itx.reply()).ephemeral).toBe(true);
    expect(itx.original?.flags).toBe(MessageFlags.Ephemeral);
    expect(emu.channelMessages(ids.general)).toEqual([]);
  });

  it('records deferReply + editReply + followUp', async () => {
    const handled = handleNext(client, async (interaction) => {
      const i = interaction as ChatInputCommandInteraction;
      await i.deferReply();
      const edited = await i.editReply('Forgot 3 memories');
      const followup = await i.followUp({ content: 'Anything else?', flags: MessageFlags.Ephemeral });
      return [edited, followup];
    });
    const itx = emu.invokeCommand({
      channelId: ids.general,
      userId: ids.alice,
      name: 'memory',
      subcommand: 'forget',
    });

    expect((await itx.response()).type).toBe(5);
    const reply = await itx.reply();
    await handled;
    expect(reply).toMatchObject({ via: 'edit', content: 'Forgot 3 memories', ephemeral: false });
    expect(itx.edits[0]?.messageId).toBe('@original');
    const followup = await itx.waitForFollowup();
    expect(followup.body.content).toBe('Anything else?');
    expect(followup.message?.flags).toBe(64);
    expect(emu.channelMessages(ids.general).map((m) => [m.content, m.type])).toEqual([
      ['Forgot 3 memories', 20],
    ]);
  });

  it('records file attachments sent with an interaction reply', async () => {
    const payload = { user: ids.alice, facts: ['likes tea'] };
    const handled = handleNext(client, async (interaction) => {
      await (interaction as ChatInputCommandInteraction).reply({
        content: 'Your export',
        files: [{ attachment: Buffer.from(JSON.stringify(payload)), name: 'x.json' }],
      });
    });
    const itx = emu.invokeCommand({
      channelId: ids.general,
      userId: ids.alice,
      name: 'memory',
      subcommand: 'export',
    });
    const callback = await itx.response();
    await handled;

    expect(callback.type).toBe(4);
    expect(callback.files).toHaveLength(1);
    expect(callback.files[0]?.name).toBe('x.json');
    expect(callback.files[0]?.field).toBe('files[0]');
    expect(JSON.parse(callback.files[0]?.data.toString('utf8') ?? 'null')).toEqual(payload);
    expect(itx.original?.attachments[0]?.filename).toBe('x.json');
    expect(itx.original?.attachments[0]?.size).toBe(JSON.stringify(payload).length);
  });

  it('dispatches a button click and records interaction.update()', async () => {
    const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
      new ButtonBuilder().setCustomId('forget:confirm').setLabel('Forget').setStyle(ButtonStyle.Danger),
    );
    const asked = handleNext(client, (i) =>
      (i as ChatInputCommandInteraction).reply({ content: 'Really forget?', components: [row] }),
    );
    emu.invokeCommand({ channelId: ids.general, userId: ids.alice, name: 'memory', subcommand: 'forget' });
    await asked;
    const prompt = await emu.waitForMessage((m) => m.content === 'Really forget?');

    let clicked: { customId: string; messageId: string; user: string } | undefined;
    const updated = handleNext(client, async (interaction) => {
      if (!interaction.isButton()) throw new Error('expected a button interaction');
      clicked = {
        customId: interaction.customId,
        messageId: interaction.message.id,
        user: interaction.user.id,
      };
      await interaction.update({ content: 'Forgotten.', components: [] });
    });
    const click = emu.clickButton({ message: prompt, customId: 'forget:confirm', userId: ids.alice });
    const callback = await click.response();
    await updated;

    expect(clicked).toEqual({ customId: 'forget:confirm', messageId: prompt.id, user: ids.alice });
    expect(callback).toMatchObject({ type: 7, data: { content: 'Forgotten.', components: [] } });
    expect(emu.message(prompt.id)?.content).toBe('Forgotten.');
    expect(emu.message(prompt.id)?.components).toEqual([]);
    expect((await click.reply()).content).toBe('Forgotten.');
  });

  it('records deferUpdate + editReply on a component message, and fetchReply/deleteReply', async () => {
    const channel = client.channels.cache.get(ids.general);
    if (!channel?.isSendable()) throw new Error('general must be sendable');
    const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
      new ButtonBuilder().setCustomId('page:2').setLabel('Next').setStyle(ButtonStyle.Primary),
    );
    const pager = await channel.send({ content: 'page 1', components: [row] });
    const handled = handleNext(client, async (interaction) => {
      if (!interaction.isButton()) throw new Error('expected a button interaction');
      await interaction.deferUpdate();
      await interaction.editReply({ content: 'page 2' });
    });
    const click = emu.clickButton({ message: pager.id, customId: 'page:2', userId: ids.bob });
    await handled;

    expect(click.callback?.type).toBe(6);
    expect(click.edits.map((e) => [e.kind, e.messageId, e.message?.id])).toEqual([
      ['edit', '@original', pager.id],
    ]);
    expect(emu.message(pager.id)?.content).toBe('page 2');
    expect(emu.message(pager.id)?.edited_timestamp).not.toBeNull();

    const cleaned = handleNext(client, async (interaction) => {
      const i = interaction as ChatInputCommandInteraction;
      await i.reply('temporary');
      const fetched = await i.fetchReply();
      await i.deleteReply();
      return fetched;
    });
    const itx = emu.invokeCommand({
      channelId: ids.general,
      userId: ids.bob,
      name: 'memory',
      subcommand: 'show',
    });
    await cleaned;
    expect(itx.edits.map((e) => e.kind)).toEqual(['delete']);
    expect(itx.original).toBeUndefined();
    expect(emu.requestsTo('GET', `/webhooks/${ids.bot}/${itx.token}/messages/@original`)).toHaveLength(1);
    expect(emu.channelMessages(ids.general).map((m) => m.content)).toEqual(['page 2']);
  });
});

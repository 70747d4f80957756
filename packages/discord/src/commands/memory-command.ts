import {
  InteractionContextType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  SlashCommandBuilder,
} from 'discord.js';

/** Subcommands of `/memory`. */
export const MemorySubcommand = {
  SHOW: 'show',
  LOOKUP: 'lookup',
  RELATED: 'related',
  SHARED: 'shared',
  REMEMBER: 'remember',
  FORGET: 'forget',
  ALIAS: 'alias',
  OPTOUT: 'optout',
  EXPORT: 'export',
  PURGE: 'purge',
  IMPORT: 'import',
} as const;
export type MemorySubcommand = (typeof MemorySubcommand)[keyof typeof MemorySubcommand];

/**
 * The `/memory` slash command as JSON for `client.application.commands.set([...])` or a guild's
 * command set. Server-only: memories belong to a server.
 */
export function memoryCommand(
  options: { name?: string; description?: string } = {},
): RESTPostAPIChatInputApplicationCommandsJSONBody {
  return new SlashCommandBuilder()
    .setName(options.name ?? 'memory')
    .setDescription(options.description ?? 'See and manage what the bot remembers')
    .setContexts(InteractionContextType.Guild)
    .addSubcommand((s) =>
      s
        .setName(MemorySubcommand.SHOW)
        .setDescription('What the bot remembers about you (or another member)')
        .addUserOption((o) => o.setName('user').setDescription('Member to show (default: you)')),
    )
    .addSubcommand((s) =>
      s
        .setName(MemorySubcommand.LOOKUP)
        .setDescription('Look a member up by a name the bot knows them by')
        .addStringOption((o) =>
          o.setName('name').setDescription('Name, nickname or mention').setRequired(true).setMaxLength(100),
        ),
    )
    .addSubcommand((s) =>
      s
        .setName(MemorySubcommand.RELATED)
        .setDescription("A member's known relations to people and things")
        .addUserOption((o) => o.setName('user').setDescription('Member').setRequired(true)),
    )
    .addSubcommand((s) =>
      s
        .setName(MemorySubcommand.SHARED)
        .setDescription('What two members have in common')
        .addUserOption((o) => o.setName('a').setDescription('First member').setRequired(true))
        .addUserOption((o) => o.setName('b').setDescription('Second member').setRequired(true)),
    )
    .addSubcommand((s) =>
      s
        .setName(MemorySubcommand.REMEMBER)
        .setDescription('Tell the bot something about yourself')
        .addStringOption((o) =>
          o
            .setName('text')
            .setDescription('For example: I play the cello')
            .setRequired(true)
            .setMaxLength(280),
        ),
    )
    .addSubcommand((s) =>
      s.setName(MemorySubcommand.FORGET).setDescription('Pick one of your memories for the bot to forget'),
    )
    .addSubcommand((s) =>
      s
        .setName(MemorySubcommand.ALIAS)
        .setDescription('Another name the bot should know you by')
        .addStringOption((o) =>
          o.setName('name').setDescription('The name').setRequired(true).setMinLength(2).setMaxLength(64),
        ),
    )
    .addSubcommand((s) =>
      s
        .setName(MemorySubcommand.OPTOUT)
        .setDescription('Stop (on) or resume (off) the bot learning from your messages')
        .addStringOption((o) =>
          o
            .setName('state')
            .setDescription('on = stop remembering me, off = remember me again')
            .setRequired(true)
            .addChoices({ name: 'on', value: 'on' }, { name: 'off', value: 'off' }),
        ),
    )
    .addSubcommand((s) =>
      s
        .setName(MemorySubcommand.EXPORT)
        .setDescription('Download everything the bot stores about you (JSON)'),
    )
    .addSubcommand((s) =>
      s.setName(MemorySubcommand.PURGE).setDescription('Delete everything the bot stores about you'),
    )
    .addSubcommand((s) =>
      s
        .setName(MemorySubcommand.IMPORT)
        .setDescription("Import this server's message history (server admins)"),
    )
    .toJSON();
}

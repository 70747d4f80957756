import { randomBytes } from 'node:crypto';
import type { AttachmentInput } from './messages.js';
import { snowflake } from './snowflake.js';
import type { ApiAttachment, ApiMessage, JsonObject } from './types.js';
import type { World } from './world.js';

/** Application command option types (Discord's ApplicationCommandOptionType). */
export const OptionType = {
  Subcommand: 1,
  SubcommandGroup: 2,
  String: 3,
  Integer: 4,
  Boolean: 5,
  User: 6,
  Channel: 7,
  Role: 8,
  Mentionable: 9,
  Number: 10,
  Attachment: 11,
} as const;

/** An option value with an explicit type; plain values are typed from the registered command. */
export type TypedOptionValue =
  | { type: 'string'; value: string }
  | { type: 'integer' | 'number'; value: number }
  | { type: 'boolean'; value: boolean }
  | { type: 'user' | 'channel' | 'role' | 'mentionable'; value: string }
  | { type: 'attachment'; value: AttachmentInput };

export type CommandOptionValue = string | number | boolean | TypedOptionValue;

/** Shorthands for typed option values: `opt.user(id)`, `opt.attachment({ name, data })`, ... */
export const opt = {
  string: (value: string): TypedOptionValue => ({ type: 'string', value }),
  integer: (value: number): TypedOptionValue => ({ type: 'integer', value }),
  number: (value: number): TypedOptionValue => ({ type: 'number', value }),
  boolean: (value: boolean): TypedOptionValue => ({ type: 'boolean', value }),
  user: (id: string): TypedOptionValue => ({ type: 'user', value: id }),
  channel: (id: string): TypedOptionValue => ({ type: 'channel', value: id }),
  role: (id: string): TypedOptionValue => ({ type: 'role', value: id }),
  mentionable: (id: string): TypedOptionValue => ({ type: 'mentionable', value: id }),
  attachment: (file: AttachmentInput): TypedOptionValue => ({ type: 'attachment', value: file }),
};

const TYPE_BY_NAME: Record<TypedOptionValue['type'], number> = {
  string: OptionType.String,
  integer: OptionType.Integer,
  boolean: OptionType.Boolean,
  user: OptionType.User,
  channel: OptionType.Channel,
  role: OptionType.Role,
  mentionable: OptionType.Mentionable,
  number: OptionType.Number,
  attachment: OptionType.Attachment,
};

export interface CommandInvocation {
  channelId: string;
  userId: string;
  name: string;
  subcommandGroup?: string;
  subcommand?: string;
  options?: Record<string, CommandOptionValue>;
  locale?: string;
}

export interface ButtonClick {
  /** The message carrying the button (object or id). */
  message: ApiMessage | string;
  customId: string;
  userId: string;
  /** Component type (2 = button, the default; 3 = string select, ...). */
  componentType?: number;
  /** Selected values for select menus. */
  values?: string[];
  locale?: string;
}

export type StoreAttachment = (channelId: string, file: AttachmentInput) => ApiAttachment;

/** Common interaction envelope for a guild channel. */
export function interactionEnvelope(
  world: World,
  type: number,
  channelId: string,
  userId: string,
  locale?: string,
): JsonObject {
  const channel = world.channel(channelId);
  const guildId = channel.guild_id;
  const envelope: JsonObject = {
    id: snowflake(),
    application_id: world.applicationId,
    type,
    token: `aW50ZXJhY3Rpb246${randomBytes(48).toString('base64url')}`,
    version: 1,
    channel_id: channel.id,
    channel: { ...channel },
    locale: locale ?? 'en-US',
    entitlements: [],
    attachment_size_limit: 10_485_760,
  };
  if (guildId === undefined) {
    Object.assign(envelope, {
      user: world.user(userId),
      context: 1,
      authorizing_integration_owners: { '1': userId },
    });
    envelope['app_permissions'] = '0';
    return envelope;
  }
  Object.assign(envelope, {
    guild_id: guildId,
    guild: { id: guildId, locale: 'en-US', features: [] },
    guild_locale: 'en-US',
    member: world.memberPayload(guildId, userId, { permissions: true }),
    app_permissions: world.permissionsOf(guildId, world.botUser.id),
    authorizing_integration_owners: { '0': guildId },
    context: 0,
  });
  return envelope;
}

/** Builds `data` of a chat-input command interaction, typing options from the registered schema. */
export function commandData(
  world: World,
  invocation: CommandInvocation,
  guildId: string | undefined,
  storeAttachment: StoreAttachment,
): JsonObject {
  const command = findCommand(world, invocation.name, guildId);
  const child = (options: JsonObject[] | undefined, name: string | undefined): JsonObject[] | undefined =>
    name === undefined ? options : asOptions(options?.find((o) => o['name'] === name)?.['options']);
  const schema = child(
    child(asOptions(command?.['options']), invocation.subcommandGroup),
    invocation.subcommand,
  );
  const resolved: Record<string, Record<string, unknown>> = {};
  const leaf = Object.entries(invocation.options ?? {}).map(([name, raw]) => {
    const known = schema?.find((o) => o['name'] === name);
    return resolveOption(world, invocation, guildId, name, raw, known, resolved, storeAttachment);
  });
  let options: JsonObject[] = leaf;
  if (invocation.subcommand !== undefined) {
    options = [{ name: invocation.subcommand, type: OptionType.Subcommand, options: leaf }];
    if (invocation.subcommandGroup !== undefined) {
      options = [{ name: invocation.subcommandGroup, type: OptionType.SubcommandGroup, options }];
    }
  }
  const data: JsonObject = { id: command?.['id'] ?? snowflake(), name: invocation.name, type: 1, options };
  if (command?.['guild_id'] !== undefined) data['guild_id'] = command['guild_id'];
  if (Object.keys(resolved).length > 0) data['resolved'] = resolved;
  return data;
}

function findCommand(world: World, name: string, guildId: string | undefined): JsonObject | undefined {
  const scopes = guildId === undefined ? ['global'] : [guildId, 'global'];
  for (const scope of scopes) {
    const found = world.commands.get(scope)?.find((c) => c['name'] === name && (c['type'] ?? 1) === 1);
    if (found) return found;
  }
  return undefined;
}

function asOptions(value: unknown): JsonObject[] | undefined {
  return Array.isArray(value) ? (value as JsonObject[]) : undefined;
}

function resolveOption(
  world: World,
  invocation: CommandInvocation,
  guildId: string | undefined,
  name: string,
  raw: CommandOptionValue,
  schema: JsonObject | undefined,
  resolved: Record<string, Record<string, unknown>>,
  storeAttachment: StoreAttachment,
): JsonObject {
  const typed = typeof raw === 'object' ? raw : undefined;
  let type = typed ? TYPE_BY_NAME[typed.type] : Number(schema?.['type'] ?? Number.NaN);
  if (Number.isNaN(type)) {
    type =
      typeof raw === 'boolean'
        ? OptionType.Boolean
        : typeof raw === 'number'
          ? Number.isInteger(raw)
            ? OptionType.Integer
            : OptionType.Number
          : OptionType.String;
  }
  const put = (kind: string, id: string, value: unknown): void => {
    resolved[kind] ??= {};
    (resolved[kind] as Record<string, unknown>)[id] = value;
  };
  const value = typed ? typed.value : raw;
  if (type === OptionType.Attachment) {
    const attachment = storeAttachment(invocation.channelId, value as AttachmentInput);
    put('attachments', attachment.id, attachment);
    return { name, type, value: attachment.id };
  }
  const id = String(value);
  if (type === OptionType.User || (type === OptionType.Mentionable && world.users.has(id))) {
    put('users', id, world.user(id));
    if (guildId !== undefined && world.guild(guildId).members.has(id)) {
      put('members', id, world.memberPayload(guildId, id, { user: false, permissions: true }));
    }
  } else if (type === OptionType.Role || type === OptionType.Mentionable) {
    const role = guildId === undefined ? undefined : world.guild(guildId).roles.find((r) => r.id === id);
    if (role) put('roles', id, role);
  } else if (type === OptionType.Channel) {
    const channel = world.channel(id);
    put('channels', id, {
      id,
      type: channel.type,
      name: channel.name,
      parent_id: channel.parent_id ?? null,
      permissions: '0',
    });
  }
  return { name, type, value };
}

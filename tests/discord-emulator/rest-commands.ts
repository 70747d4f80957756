import type { EmulatorCore } from './core.js';
import { ApiError, invalidBody } from './http-errors.js';
import { asObject, param } from './rest-meta.js';
import type { RestContext, Router } from './router.js';
import { snowflake } from './snowflake.js';
import type { ApiCommand, CommandOptionBody } from './types.js';

const NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

interface CommandBody extends CommandOptionBody {
  name_localizations?: unknown;
  description_localizations?: unknown;
  default_member_permissions?: unknown;
  dm_permission?: unknown;
  nsfw?: unknown;
  integration_types?: unknown;
  contexts?: unknown;
}

/** Global and guild application-command registration (bulk overwrite, upsert, edit, delete). */
export function registerCommandRoutes(router: Router, core: EmulatorCore): void {
  const { world } = core;
  for (const prefix of ['/applications/:appId/commands', '/applications/:appId/guilds/:guildId/commands']) {
    const scope = (ctx: RestContext): string => {
      if (param(ctx, 'appId') !== world.applicationId) throw new ApiError(404, 10002, 'Unknown Application');
      const { guildId } = ctx.params;
      return guildId === undefined ? 'global' : world.guild(guildId).id;
    };
    const list = (ctx: RestContext): ApiCommand[] => world.commands.get(scope(ctx)) ?? [];
    const find = (ctx: RestContext): ApiCommand => {
      const found = list(ctx).find((c) => c.id === param(ctx, 'commandId'));
      if (!found) throw new ApiError(404, 10063, 'Unknown application command');
      return found;
    };
    const save = (ctx: RestContext, commands: ApiCommand[]): void => {
      world.commands.set(scope(ctx), commands);
      core.notifier.notify();
    };
    const build = (ctx: RestContext, body: CommandBody, existing: ApiCommand | undefined): ApiCommand => {
      const { guildId } = ctx.params;
      return normalizeCommand(body, world.applicationId, guildId, existing);
    };

    router
      .add('GET', prefix, (ctx) => ({ status: 200, body: list(ctx) }))
      .add('PUT', prefix, (ctx) => {
        if (!Array.isArray(ctx.body)) throw invalidBody('Expected an array of commands.');
        const previous = list(ctx);
        const next = (ctx.body as unknown[]).map((raw) => {
          const body = asObject(raw) as CommandBody;
          return build(ctx, body, sameCommand(previous, body));
        });
        if (new Set(next.map((c) => `${c.type}:${c.name}`)).size !== next.length) {
          throw invalidBody('Application command names must be unique');
        }
        save(ctx, next);
        return { status: 200, body: next };
      })
      .add('POST', prefix, (ctx) => {
        const body = asObject(ctx.body) as CommandBody;
        const previous = list(ctx);
        const existing = sameCommand(previous, body);
        const command = build(ctx, body, existing);
        save(ctx, existing ? previous.map((c) => (c === existing ? command : c)) : [...previous, command]);
        return { status: existing ? 200 : 201, body: command };
      })
      .add('GET', `${prefix}/:commandId`, (ctx) => ({ status: 200, body: find(ctx) }))
      .add('PATCH', `${prefix}/:commandId`, (ctx) => {
        const existing = find(ctx);
        const command = build(ctx, { ...existing, ...(asObject(ctx.body) as CommandBody) }, existing);
        save(
          ctx,
          list(ctx).map((c) => (c === existing ? command : c)),
        );
        return { status: 200, body: command };
      })
      .add('DELETE', `${prefix}/:commandId`, (ctx) => {
        const existing = find(ctx);
        save(
          ctx,
          list(ctx).filter((c) => c !== existing),
        );
        return { status: 204 };
      });
  }
}

function sameCommand(commands: ApiCommand[], body: CommandBody): ApiCommand | undefined {
  return commands.find((c) => c.name === body.name && c.type === (body.type ?? 1));
}

/** Validates like Discord (names, descriptions, option order) and fills server-side fields. */
function normalizeCommand(
  body: CommandBody,
  applicationId: string,
  guildId: string | undefined,
  existing: ApiCommand | undefined,
): ApiCommand {
  const type = Number(body.type ?? 1);
  const name = String(body.name ?? '');
  if (!NAME.test(name) || (type === 1 && name !== name.toLowerCase())) {
    throw invalidBody(`Invalid command name "${name}"`);
  }
  const description = String(body.description ?? '');
  if (type === 1 && (description.length < 1 || description.length > 100)) {
    throw invalidBody(`Command "${name}" needs a description of 1-100 characters`);
  }
  const options = Array.isArray(body.options) ? (body.options as CommandOptionBody[]) : [];
  validateOptions(options, name);
  const command: ApiCommand = {
    id: existing?.id ?? snowflake(),
    application_id: applicationId,
    version: snowflake(),
    type,
    name,
    name_localizations: body.name_localizations ?? null,
    description,
    description_localizations: body.description_localizations ?? null,
    options,
    default_member_permissions: body.default_member_permissions ?? null,
    dm_permission: body.dm_permission ?? true,
    nsfw: body.nsfw ?? false,
    integration_types: body.integration_types ?? [0],
    contexts: body.contexts ?? null,
  };
  if (guildId !== undefined) command.guild_id = guildId;
  return command;
}

function validateOptions(options: CommandOptionBody[], path: string): void {
  if (options.length > 25) throw invalidBody(`${path}: at most 25 options`);
  let sawOptional = false;
  for (const option of options) {
    const name = String(option.name ?? '');
    if (!NAME.test(name) || name !== name.toLowerCase())
      throw invalidBody(`${path}: invalid option name "${name}"`);
    const description = String(option.description ?? '');
    if (description.length < 1 || description.length > 100) {
      throw invalidBody(`${path}.${name}: description must be 1-100 characters`);
    }
    const type = Number(option.type);
    if (type === 1 || type === 2) {
      const nested = Array.isArray(option.options) ? (option.options as CommandOptionBody[]) : [];
      validateOptions(nested, `${path}.${name}`);
      continue;
    }
    if (option.required === true && sawOptional) {
      throw invalidBody(`${path}.${name}: required options must be placed before non-required options`);
    }
    if (option.required !== true) sawOptional = true;
  }
}

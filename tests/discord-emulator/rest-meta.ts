import type { EmulatorCore } from './core.js';
import { ApiError, invalidBody } from './http-errors.js';
import type { RestContext, Router } from './router.js';
import { snowflake } from './snowflake.js';
import type { JsonObject } from './types.js';

const NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/** Gateway discovery, users, application and application-command routes. */
export function registerMetaRoutes(router: Router, core: EmulatorCore): void {
  const { world } = core;
  const gatewayBot = () => ({
    status: 200,
    body: {
      url: core.gatewayUrl(),
      shards: 1,
      session_start_limit: { total: 1000, remaining: 1000, reset_after: 86_400_000, max_concurrency: 1 },
    },
  });
  const application = () => ({
    id: world.applicationId,
    name: world.botUser.username,
    icon: null,
    description: '',
    summary: '',
    type: null,
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: '0'.repeat(64),
    flags: 0,
    owner: { id: snowflake(), username: 'owner', global_name: null, discriminator: '0', avatar: null },
    team: null,
    bot: world.botUser,
    approximate_guild_count: world.guilds.size,
    tags: [],
    interactions_endpoint_url: null,
    redirect_uris: [],
  });

  router
    .add('GET', '/gateway', () => ({ status: 200, body: { url: core.gatewayUrl() } }), { auth: false })
    .add('GET', '/gateway/bot', gatewayBot)
    .add('GET', '/users/@me', () => ({
      status: 200,
      body: { ...world.botUser, verified: true, mfa_enabled: false, flags: 0 },
    }))
    .add('GET', '/users/:userId', (ctx) => ({ status: 200, body: world.user(param(ctx, 'userId')) }))
    .add('GET', '/applications/@me', () => ({ status: 200, body: application() }))
    .add('GET', '/oauth2/applications/@me', () => ({ status: 200, body: application() }));

  for (const prefix of ['/applications/:appId/commands', '/applications/:appId/guilds/:guildId/commands']) {
    const scope = (ctx: RestContext): string => {
      if (param(ctx, 'appId') !== world.applicationId) throw new ApiError(404, 10002, 'Unknown Application');
      const guildId = ctx.params['guildId'];
      if (guildId === undefined) return 'global';
      world.guild(guildId);
      return guildId;
    };
    const list = (ctx: RestContext): JsonObject[] => world.commands.get(scope(ctx)) ?? [];
    const find = (ctx: RestContext): JsonObject => {
      const found = list(ctx).find((c) => c['id'] === param(ctx, 'commandId'));
      if (!found) throw new ApiError(404, 10063, 'Unknown application command');
      return found;
    };
    const save = (ctx: RestContext, commands: JsonObject[]): void => {
      world.commands.set(scope(ctx), commands);
      core.notifier.notify();
    };
    router
      .add('GET', prefix, (ctx) => ({ status: 200, body: list(ctx) }))
      .add('PUT', prefix, (ctx) => {
        if (!Array.isArray(ctx.body)) throw invalidBody('Expected an array of commands.');
        const previous = list(ctx);
        const next = (ctx.body as JsonObject[]).map((body) =>
          normalizeCommand(body, world.applicationId, ctx.params['guildId'], sameCommand(previous, body)),
        );
        const names = new Set(next.map((c) => `${c['type']}:${c['name']}`));
        if (names.size !== next.length) throw invalidBody('Application command names must be unique');
        save(ctx, next);
        return { status: 200, body: next };
      })
      .add('POST', prefix, (ctx) => {
        const body = asObject(ctx.body);
        const previous = list(ctx);
        const existing = sameCommand(previous, body);
        const command = normalizeCommand(body, world.applicationId, ctx.params['guildId'], existing);
        save(ctx, existing ? previous.map((c) => (c === existing ? command : c)) : [...previous, command]);
        return { status: existing ? 200 : 201, body: command };
      })
      .add('GET', `${prefix}/:commandId`, (ctx) => ({ status: 200, body: find(ctx) }))
      .add('PATCH', `${prefix}/:commandId`, (ctx) => {
        const existing = find(ctx);
        const command = normalizeCommand(
          { ...existing, ...asObject(ctx.body) },
          world.applicationId,
          ctx.params['guildId'],
          existing,
        );
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

export function param(ctx: RestContext, name: string): string {
  const value = ctx.params[name];
  if (value === undefined) throw new Error(`route parameter ${name} missing`);
  return value;
}

export function asObject(body: unknown): JsonObject {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidBody('Expected a JSON object.');
  return body as JsonObject;
}

function sameCommand(commands: JsonObject[], body: JsonObject): JsonObject | undefined {
  return commands.find((c) => c['name'] === body['name'] && c['type'] === (body['type'] ?? 1));
}

/** Validates like Discord (names, descriptions, option order) and fills server-side fields. */
function normalizeCommand(
  body: JsonObject,
  applicationId: string,
  guildId: string | undefined,
  existing?: JsonObject,
): JsonObject {
  const type = Number(body['type'] ?? 1);
  const name = String(body['name'] ?? '');
  if (!NAME.test(name) || (type === 1 && name !== name.toLowerCase()))
    throw invalidBody(`Invalid command name "${name}"`);
  const description = String(body['description'] ?? '');
  if (type === 1 && (description.length < 1 || description.length > 100)) {
    throw invalidBody(`Command "${name}" needs a description of 1-100 characters`);
  }
  const options = Array.isArray(body['options']) ? (body['options'] as JsonObject[]) : [];
  validateOptions(options, name);
  const command: JsonObject = {
    id: existing?.['id'] ?? snowflake(),
    application_id: applicationId,
    version: snowflake(),
    type,
    name,
    name_localizations: body['name_localizations'] ?? null,
    description,
    description_localizations: body['description_localizations'] ?? null,
    options,
    default_member_permissions: body['default_member_permissions'] ?? null,
    dm_permission: body['dm_permission'] ?? true,
    nsfw: body['nsfw'] ?? false,
    integration_types: body['integration_types'] ?? [0],
    contexts: body['contexts'] ?? null,
  };
  if (guildId !== undefined) command['guild_id'] = guildId;
  return command;
}

function validateOptions(options: JsonObject[], path: string): void {
  if (options.length > 25) throw invalidBody(`${path}: at most 25 options`);
  let sawOptional = false;
  for (const option of options) {
    const name = String(option['name'] ?? '');
    if (!NAME.test(name) || name !== name.toLowerCase())
      throw invalidBody(`${path}: invalid option name "${name}"`);
    const description = String(option['description'] ?? '');
    if (description.length < 1 || description.length > 100)
      throw invalidBody(`${path}.${name}: description must be 1-100 characters`);
    const type = Number(option['type']);
    if (type === 1 || type === 2) {
      validateOptions(
        Array.isArray(option['options']) ? (option['options'] as JsonObject[]) : [],
        `${path}.${name}`,
      );
      continue;
    }
    if (option['required'] === true && sawOptional)
      throw invalidBody(`${path}.${name}: required options must be placed before non-required options`);
    if (option['required'] !== true) sawOptional = true;
  }
}

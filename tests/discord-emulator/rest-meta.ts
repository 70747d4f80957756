import type { EmulatorCore } from './core.js';
import { invalidBody } from './http-errors.js';
import type { RestContext, Router } from './router.js';
import { snowflake } from './snowflake.js';
import type { JsonObject } from './types.js';

/** Gateway discovery, user and application routes. */
export function registerMetaRoutes(router: Router, core: EmulatorCore): void {
  const { world } = core;
  const ownerId = snowflake();
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
    owner: { id: ownerId, username: 'owner', global_name: null, discriminator: '0', avatar: null },
    team: null,
    bot: world.botUser,
    approximate_guild_count: world.guilds.size,
    tags: [],
    interactions_endpoint_url: null,
    redirect_uris: [],
  });

  router
    .add('GET', '/gateway', () => ({ status: 200, body: { url: core.gatewayUrl() } }), { auth: false })
    .add('GET', '/gateway/bot', () => ({
      status: 200,
      body: {
        url: core.gatewayUrl(),
        shards: 1,
        session_start_limit: { total: 1000, remaining: 1000, reset_after: 86_400_000, max_concurrency: 1 },
      },
    }))
    .add('GET', '/users/@me', () => ({
      status: 200,
      body: { ...world.botUser, verified: true, mfa_enabled: false, flags: 0 },
    }))
    .add('GET', '/users/:userId', (ctx) => ({ status: 200, body: world.user(param(ctx, 'userId')) }))
    .add('GET', '/applications/@me', () => ({ status: 200, body: application() }))
    .add('GET', '/oauth2/applications/@me', () => ({ status: 200, body: application() }));
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

import { randomBytes } from 'node:crypto';
import type { EmulatorCore } from './core.js';
import { EventPublisher } from './event-publisher.js';
import type { Gateway } from './gateway.js';
import { InteractionRegistry } from './interactions.js';
import { MessageFactory } from './messages.js';
import type { ChangeNotifier } from './notifier.js';
import { registerChannelRoutes } from './rest-channels.js';
import { registerCommandRoutes } from './rest-commands.js';
import { registerInteractionRoutes } from './rest-interactions.js';
import { registerMetaRoutes } from './rest-meta.js';
import { registerThreadRoutes } from './rest-threads.js';
import { Router } from './router.js';
import type { World } from './world.js';

/** A token shaped like a real bot token: base64(user id).base64(timestamp).hmac */
export function botToken(botUserId: string): string {
  const stamp = Buffer.from(Math.floor(Date.now() / 1000).toString(16), 'hex').toString('base64url');
  return `${Buffer.from(botUserId).toString('base64url')}.${stamp}.${randomBytes(20).toString('base64url')}`;
}

/** The shared internals handed to the route modules and the scripting side. */
export function createCore(parts: {
  readonly world: World;
  readonly gateway: Gateway;
  readonly notifier: ChangeNotifier;
  readonly token: string;
  readonly echoBotMessages: boolean;
  readonly port: () => number;
}): EmulatorCore {
  const { world, gateway, port } = parts;
  return {
    world,
    factory: new MessageFactory(world, () => `http://127.0.0.1:${port()}`),
    publish: new EventPublisher(gateway, world),
    gateway,
    interactions: new InteractionRegistry(),
    notifier: parts.notifier,
    token: parts.token,
    echoBotMessages: parts.echoBotMessages,
    gatewayUrl: () => `ws://127.0.0.1:${port()}/gateway`,
  };
}

/** Every REST route the emulator answers. */
export function createRouter(core: EmulatorCore): Router {
  const router = new Router();
  registerMetaRoutes(router, core);
  registerCommandRoutes(router, core);
  registerChannelRoutes(router, core);
  registerThreadRoutes(router, core);
  registerInteractionRoutes(router, core);
  return router;
}

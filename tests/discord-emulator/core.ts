import type { EventPublisher } from './event-publisher.js';
import type { Gateway } from './gateway.js';
import type { InteractionRegistry } from './interactions.js';
import type { MessageFactory } from './messages.js';
import type { ChangeNotifier } from './notifier.js';
import type { ApiMessage } from './types.js';
import type { World } from './world.js';

/** Shared internals handed to the REST route modules. */
export interface EmulatorCore {
  readonly world: World;
  readonly factory: MessageFactory;
  readonly publish: EventPublisher;
  readonly gateway: Gateway;
  readonly interactions: InteractionRegistry;
  readonly notifier: ChangeNotifier;
  readonly token: string;
  readonly echoBotMessages: boolean;
  /** `ws://127.0.0.1:PORT/gateway` */
  gatewayUrl(): string;
}

/** Stores a message the bot created and, if visible and echoing is on, dispatches MESSAGE_CREATE. */
export function storeBotMessage(core: EmulatorCore, message: ApiMessage, ephemeral: boolean): ApiMessage {
  core.world.storeMessage(message, { listed: !ephemeral });
  if (core.echoBotMessages && !ephemeral) core.publish.messageCreate(message);
  core.notifier.notify();
  return message;
}

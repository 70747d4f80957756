import type { Gateway, GatewaySession } from './gateway.js';
import { GatewayIntents } from './gateway-protocol.js';
import { MessageFactory } from './messages.js';
import type { ApiChannel, ApiInteraction, ApiMessage, ApiRole, ApiUser, JsonObject } from './types.js';
import type { World } from './world.js';

/** Turns world changes into correctly gated gateway dispatches. */
export class EventPublisher {
  readonly #gateway: Gateway;
  readonly #world: World;

  constructor(gateway: Gateway, world: World) {
    this.#gateway = gateway;
    this.#world = world;
  }

  messageCreate(message: ApiMessage): number {
    return this.#message('MESSAGE_CREATE', message);
  }

  messageUpdate(message: ApiMessage): number {
    return this.#message('MESSAGE_UPDATE', message);
  }

  messageDelete(message: ApiMessage): number {
    const { id, channel_id, guild_id } = message;
    const d = guild_id === undefined ? { id, channel_id } : { id, channel_id, guild_id };
    return this.#gateway.dispatch('MESSAGE_DELETE', d, this.#messageGate(message));
  }

  /** One MESSAGE_DELETE_BULK for messages of one channel (what a moderator's purge sends). */
  messageDeleteBulk(messages: readonly ApiMessage[]): number {
    const [first] = messages;
    if (!first) return 0;
    const { channel_id, guild_id } = first;
    const ids = messages.map((m) => m.id);
    const d = guild_id === undefined ? { ids, channel_id } : { ids, channel_id, guild_id };
    return this.#gateway.dispatch('MESSAGE_DELETE_BULK', d, this.#messageGate(first));
  }

  /**
   * MESSAGE_REACTION_ADD, _REMOVE, _REMOVE_ALL or _REMOVE_EMOJI about a message: guild events need
   * GuildMessageReactions, DM events DirectMessageReactions (as on Discord).
   */
  reaction(event: string, message: ApiMessage, data: JsonObject): number {
    const gate =
      message.guild_id === undefined
        ? { intent: GatewayIntents.DirectMessageReactions }
        : { guildId: message.guild_id, intent: GatewayIntents.GuildMessageReactions };
    return this.#gateway.dispatch(event, data, gate);
  }

  memberAdd(guildId: string, userId: string): number {
    const d = { ...this.#world.memberPayload(guildId, userId), guild_id: guildId };
    return this.#gateway.dispatch('GUILD_MEMBER_ADD', d, { guildId, intent: GatewayIntents.GuildMembers });
  }

  memberUpdate(guildId: string, userId: string): number {
    const d = { ...this.#world.memberPayload(guildId, userId), guild_id: guildId };
    return this.#gateway.dispatch('GUILD_MEMBER_UPDATE', d, { guildId, intent: GatewayIntents.GuildMembers });
  }

  memberRemove(guildId: string, user: ApiUser): number {
    return this.#gateway.dispatch(
      'GUILD_MEMBER_REMOVE',
      { guild_id: guildId, user },
      {
        guildId,
        intent: GatewayIntents.GuildMembers,
      },
    );
  }

  channelCreate(channel: ApiChannel, thread: boolean): number {
    const guildId = channel.guild_id;
    const options = guildId === undefined ? {} : { guildId, intent: GatewayIntents.Guilds };
    const d = thread ? { ...channel, newly_created: true } : channel;
    return this.#gateway.dispatch(thread ? 'THREAD_CREATE' : 'CHANNEL_CREATE', d, options);
  }

  /** CHANNEL_UPDATE, or THREAD_UPDATE for a thread: the whole channel object, as Discord sends it. */
  channelUpdate(channel: ApiChannel, thread: boolean): number {
    const guildId = channel.guild_id;
    const options = guildId === undefined ? {} : { guildId, intent: GatewayIntents.Guilds };
    return this.#gateway.dispatch(thread ? 'THREAD_UPDATE' : 'CHANNEL_UPDATE', channel, options);
  }

  roleUpdate(guildId: string, role: ApiRole): number {
    return this.#gateway.dispatch(
      'GUILD_ROLE_UPDATE',
      { guild_id: guildId, role },
      { guildId, intent: GatewayIntents.Guilds },
    );
  }

  interactionCreate(payload: ApiInteraction): number {
    const guildId = payload.guild_id;
    return this.#gateway.dispatch('INTERACTION_CREATE', payload, guildId === undefined ? {} : { guildId });
  }

  #message(event: string, message: ApiMessage): number {
    return this.#gateway.dispatch(event, message, {
      ...this.#messageGate(message),
      transform: (data, session) =>
        this.#seesContent(session, message) ? data : MessageFactory.withoutContent(message),
    });
  }

  #messageGate(message: ApiMessage): { guildId?: string; intent: number } {
    return message.guild_id === undefined
      ? { intent: GatewayIntents.DirectMessages }
      : { guildId: message.guild_id, intent: GatewayIntents.GuildMessages };
  }

  /** Discord withholds content without MessageContent unless the bot wrote or was mentioned in it. */
  #seesContent(session: GatewaySession, message: ApiMessage): boolean {
    if (session.intents & GatewayIntents.MessageContent) return true;
    const botId = this.#world.botUser.id;
    return (
      message.guild_id === undefined ||
      message.author.id === botId ||
      message.mentions.some((u) => u.id === botId)
    );
  }
}

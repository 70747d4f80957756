import type { EmulatorCore } from './core.js';
import {
  type ButtonClick,
  type CommandInvocation,
  commandData,
  interactionEnvelope,
} from './interaction-payloads.js';
import { InteractionHandle, type InteractionState } from './interactions.js';
import type { UserMessageInput } from './messages.js';
import { channelPayload, isThreadType } from './seed-payloads.js';
import type {
  ApiChannel,
  ApiInteraction,
  ApiMessage,
  ChannelSeed,
  JsonObject,
  MemberSeed,
  UserSeed,
} from './types.js';

/** Test-driven world changes, each followed by the gateway event Discord would send. */
export class Scripting {
  readonly #core: EmulatorCore;

  constructor(core: EmulatorCore) {
    this.#core = core;
  }

  sendMessage(input: UserMessageInput): ApiMessage {
    const { world, factory, publish, notifier } = this.#core;
    this.#checkGuild(input.guildId, input.channelId);
    const message = world.storeMessage(factory.fromUser(input));
    publish.messageCreate(message);
    notifier.notify();
    return message;
  }

  editMessage(
    messageId: string,
    changes: { content?: string; embeds?: JsonObject[]; components?: JsonObject[] },
  ): ApiMessage {
    const { world, factory, publish, notifier } = this.#core;
    const message = factory.applyEdit(world.message(messageId), { ...changes }, []);
    publish.messageUpdate(message);
    notifier.notify();
    return message;
  }

  deleteMessage(messageId: string): void {
    const { world, publish, notifier } = this.#core;
    const message = world.message(messageId);
    world.deleteMessage(messageId);
    publish.messageDelete(message);
    notifier.notify();
  }

  /** Deletes messages of one channel at once (MESSAGE_DELETE_BULK, as Discord's bulk delete). */
  deleteMessages(messageIds: readonly string[]): void {
    const { world, publish, notifier } = this.#core;
    const messages = messageIds.map((id) => world.message(id));
    const channels = new Set(messages.map((m) => m.channel_id));
    if (channels.size > 1) throw new Error('a bulk delete covers messages of one channel');
    for (const id of messageIds) world.deleteMessage(id);
    publish.messageDeleteBulk(messages);
    notifier.notify();
  }

  addMember(guildId: string, member: MemberSeed): void {
    this.#core.world.upsertMember(guildId, member);
    this.#core.publish.memberAdd(guildId, member.user.id);
    this.#core.notifier.notify();
  }

  updateMember(guildId: string, userId: string, changes: { nick?: string | null; roles?: string[] }): void {
    const member = this.#core.world.member(guildId, userId);
    if (changes.nick !== undefined) member.nick = changes.nick;
    if (changes.roles !== undefined) member.roles = [...changes.roles];
    this.#core.publish.memberUpdate(guildId, userId);
    this.#core.notifier.notify();
  }

  /** Changes a user's username/global name; every guild they are in gets a GUILD_MEMBER_UPDATE. */
  updateUser(userId: string, changes: Partial<Pick<UserSeed, 'username' | 'global_name'>>): void {
    const { world, publish, notifier } = this.#core;
    const user = world.user(userId);
    if (changes.username !== undefined) user.username = changes.username;
    if (changes.global_name !== undefined) user.global_name = changes.global_name;
    for (const guild of world.guilds.values())
      if (guild.members.has(userId)) publish.memberUpdate(guild.id, userId);
    notifier.notify();
  }

  removeMember(guildId: string, userId: string): void {
    const { world, publish, notifier } = this.#core;
    const user = world.user(userId);
    world.member(guildId, userId);
    world.guild(guildId).members.delete(userId);
    publish.memberRemove(guildId, user);
    notifier.notify();
  }

  createChannel(guildId: string, seed: ChannelSeed): ApiChannel {
    const { world, publish, notifier } = this.#core;
    const guild = world.guild(guildId);
    const channel = channelPayload(
      seed,
      guild.channelIds.length,
      guild.id,
      world.botUser.id,
      new Date().toISOString(),
    );
    world.channels.set(channel.id, channel);
    guild.channelIds.push(channel.id);
    publish.channelCreate(channel, isThreadType(channel.type));
    notifier.notify();
    return channel;
  }

  invokeCommand(invocation: CommandInvocation): InteractionHandle {
    const { world, factory } = this.#core;
    const { channelId, userId } = invocation;
    this.#checkGuild(invocation.guildId, channelId);
    const envelope = interactionEnvelope(world, 2, channelId, userId, invocation.locale);
    envelope.data = commandData(world, invocation, world.guildIdOf(channelId), (channel, file) =>
      factory.storeAttachment(channel, file),
    );
    return this.#start(envelope, userId, undefined);
  }

  clickButton(click: ButtonClick): InteractionHandle {
    const { world } = this.#core;
    const message = world.message(typeof click.message === 'string' ? click.message : click.message.id);
    const envelope = interactionEnvelope(world, 3, message.channel_id, click.userId, click.locale);
    const data = { custom_id: click.customId, component_type: click.componentType ?? 2 };
    envelope.data = click.values === undefined ? data : { ...data, values: click.values };
    envelope.message = structuredClone(message);
    return this.#start(envelope, click.userId, message.id);
  }

  #checkGuild(guildId: string | undefined, channelId: string): void {
    const actual = this.#core.world.guildIdOf(channelId);
    if (guildId !== undefined && guildId !== actual) {
      throw new Error(`channel ${channelId} belongs to guild ${actual ?? '(none)'}, not ${guildId}`);
    }
  }

  #start(envelope: ApiInteraction, userId: string, sourceMessageId: string | undefined): InteractionHandle {
    const { world, interactions, publish, notifier } = this.#core;
    const state: InteractionState = {
      id: envelope.id,
      token: envelope.token,
      type: envelope.type,
      channelId: envelope.channel_id,
      guildId: envelope.guild_id,
      userId,
      payload: envelope,
      sourceMessageId,
      callback: undefined,
      originalMessageId: sourceMessageId,
      webhook: [],
    };
    interactions.add(state);
    publish.interactionCreate(envelope);
    notifier.notify();
    return new InteractionHandle(state, world, notifier);
  }
}

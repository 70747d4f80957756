import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EmulatorCore } from './core.js';
import { botToken, createCore, createRouter } from './emulator-parts.js';
import {
  type DispatchOptions,
  Gateway,
  type GatewayFrameRecord,
  type GatewaySessionInfo,
} from './gateway.js';
import { GatewayCloseCode, PRIVILEGED_INTENTS } from './gateway-protocol.js';
import { type HistoryMessageInput, type SeedHistoryOptions, seedHistory } from './history-seed.js';
import { createHttpServer } from './http-server.js';
import type { ButtonClick, CommandInvocation } from './interaction-payloads.js';
import type { InteractionHandle } from './interactions.js';
import type { UserMessageInput } from './messages.js';
import { ChangeNotifier } from './notifier.js';
import { type PendingRequest, type RequestHold, RequestHolds } from './request-holds.js';
import { Scripting } from './scripting.js';
import { type ChannelChanges, type RoleChanges, updateChannel, updateRole } from './scripting-permissions.js';
import {
  addReaction,
  clearReactions,
  type EmojiInput,
  type ReactionInput,
  removeReaction,
} from './scripting-reactions.js';
import type {
  ApiChannel,
  ApiMessage,
  ApiRole,
  ChannelSeed,
  EmulatorOptions,
  JsonObject,
  MemberSeed,
  RecordedRequest,
  UserSeed,
} from './types.js';
import { World } from './world.js';
import { DEFAULT_TIMEOUT_MS, WorldView } from './world-view.js';

/** discord.js client options pointing at the emulator (spread into `new Client({...})`). */
export interface EmulatorClientOptions {
  rest: { api: string };
}

/** Starts an emulator on 127.0.0.1 (random free port unless `options.port` is set). */
export async function startDiscordEmulator(options: EmulatorOptions): Promise<DiscordEmulator> {
  const emulator = new DiscordEmulator(options);
  await emulator.listen(options.port ?? 0);
  return emulator;
}

export class DiscordEmulator extends WorldView {
  readonly token: string;
  /** Unexpected handler exceptions (answered as HTTP 500). Tests can assert this stays empty. */
  readonly errors: unknown[] = [];
  readonly #core: EmulatorCore;
  readonly #gateway: Gateway;
  readonly #server: Server;
  readonly #script: Scripting;
  readonly #requests: RecordedRequest[] = [];
  readonly #holds = new RequestHolds(this.notifier);
  #port = 0;

  constructor(options: EmulatorOptions) {
    super(new World(options), new ChangeNotifier());
    this.token = options.token ?? botToken(options.botUser.id);
    const notifier = this.notifier;
    this.#gateway = new Gateway({
      world: this.world,
      token: this.token,
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250,
      privilegedIntents: options.privilegedIntents ?? PRIVILEGED_INTENTS,
      resumeUrl: () => `ws://127.0.0.1:${this.#port}/gateway/resume`,
      onChange: () => notifier.notify(),
    });
    this.#core = createCore({
      world: this.world,
      gateway: this.#gateway,
      notifier,
      token: this.token,
      echoBotMessages: options.echoBotMessages ?? true,
      port: () => this.#port,
    });
    this.#server = createHttpServer({
      router: createRouter(this.#core),
      token: this.token,
      file: (id) => this.world.files.get(id),
      onRequest: (record) => {
        this.#requests.push(record);
        notifier.notify();
      },
      onError: (error) => this.errors.push(error),
      beforeHandle: (request) => this.#holds.wait(request),
    });
    this.#gateway.attach(this.#server);
    this.#script = new Scripting(this.#core);
  }

  /** @internal Use {@link startDiscordEmulator}. */
  async listen(port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, '127.0.0.1', () => resolve());
    });
    this.#port = (this.#server.address() as AddressInfo).port;
  }

  get port(): number {
    return this.#port;
  }

  /** Value for discord.js `rest.api` (discord.js appends `/v10`). */
  get restUrl(): string {
    return `http://127.0.0.1:${this.#port}/api`;
  }

  /** Returned by `GET /gateway/bot`; @discordjs/ws appends `?v=10&encoding=json`. */
  get gatewayUrl(): string {
    return `ws://127.0.0.1:${this.#port}/gateway`;
  }

  clientOptions(): EmulatorClientOptions {
    return { rest: { api: this.restUrl } };
  }

  // ------------------------------------------------------------------ observation

  /** Every REST request received (including failed ones), oldest first. */
  get requests(): readonly RecordedRequest[] {
    return this.#requests;
  }

  /** Requests matching a method and an exact path (below /api/v10) or a path pattern. */
  requestsTo(method: string, path: string | RegExp): RecordedRequest[] {
    return this.#requests.filter(
      (r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
    );
  }

  waitForRequest(
    predicate: (r: RecordedRequest) => boolean,
    timeoutMs = DEFAULT_TIMEOUT_MS,
  ): Promise<RecordedRequest> {
    return this.notifier.waitFor(() => this.#requests.find(predicate), timeoutMs, 'a matching REST request');
  }

  /** Gateway frames received from clients (heartbeats, IDENTIFY, RESUME, op 8, ...). */
  get gatewayFrames(): readonly GatewayFrameRecord[] {
    return this.#gateway.received;
  }

  sessions(): GatewaySessionInfo[] {
    return this.#gateway.info();
  }

  /** Resolves once at least `count` identified sessions are connected. */
  waitForIdentify(count = 1, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<GatewaySessionInfo[]> {
    return this.notifier.waitFor(
      () => {
        const live = this.sessions().filter((s) => s.connected);
        return live.length >= count ? live : undefined;
      },
      timeoutMs,
      `${count} identified gateway session(s)`,
    );
  }

  // ------------------------------------------------------------------ scripting (user / Discord side)

  /**
   * Past messages of a channel, oldest first, stored without gateway events (as if posted before the
   * bot connected): `GET /channels/:id/messages` pages through them like Discord. Bulk-friendly.
   */
  seedHistory(
    channelId: string,
    messages: readonly HistoryMessageInput[],
    options?: SeedHistoryOptions,
  ): ApiMessage[] {
    return seedHistory(this.#core, channelId, messages, options);
  }

  /** A user posts a message: stored for GET and dispatched as MESSAGE_CREATE. */
  sendMessage(input: UserMessageInput): ApiMessage {
    return this.#script.sendMessage(input);
  }

  editMessage(
    messageId: string,
    changes: { content?: string; embeds?: JsonObject[]; components?: JsonObject[] },
  ): ApiMessage {
    return this.#script.editMessage(messageId, changes);
  }

  deleteMessage(messageId: string): void {
    this.#script.deleteMessage(messageId);
  }

  /** A bulk delete of messages of one channel: one MESSAGE_DELETE_BULK dispatch. */
  deleteMessages(messageIds: readonly string[]): void {
    this.#script.deleteMessages(messageIds);
  }

  /** A user reacts: MESSAGE_REACTION_ADD (nothing when they already have that reaction). */
  addReaction(input: ReactionInput): number {
    return addReaction(this.#core, input);
  }

  /** A user takes a reaction back: MESSAGE_REACTION_REMOVE (nothing when they had none). */
  removeReaction(input: ReactionInput): number {
    return removeReaction(this.#core, input);
  }

  /** Every reaction (MESSAGE_REACTION_REMOVE_ALL) or one emoji's (_REMOVE_EMOJI) removed by a moderator. */
  clearReactions(messageId: string, emoji?: EmojiInput): number {
    return clearReactions(this.#core, messageId, emoji);
  }

  addMember(guildId: string, member: MemberSeed): void {
    this.#script.addMember(guildId, member);
  }

  renameMember(guildId: string, userId: string, nick: string | null): void {
    this.#script.updateMember(guildId, userId, { nick });
  }

  updateMember(guildId: string, userId: string, changes: { nick?: string | null; roles?: string[] }): void {
    this.#script.updateMember(guildId, userId, changes);
  }

  updateUser(userId: string, changes: Partial<Pick<UserSeed, 'username' | 'global_name'>>): void {
    this.#script.updateUser(userId, changes);
  }

  removeMember(guildId: string, userId: string): void {
    this.#script.removeMember(guildId, userId);
  }

  createChannel(guildId: string, channel: ChannelSeed): ApiChannel {
    return this.#script.createChannel(guildId, channel);
  }

  /** A user runs a chat-input command: dispatches INTERACTION_CREATE (type 2). */
  invokeCommand(invocation: CommandInvocation): InteractionHandle {
    return this.#script.invokeCommand(invocation);
  }

  /** A user clicks a button (or uses a select menu): dispatches INTERACTION_CREATE (type 3). */
  clickButton(click: ButtonClick): InteractionHandle {
    return this.#script.clickButton(click);
  }

  /** Changes a channel (name, topic, permission overwrites, thread archiving): CHANNEL_UPDATE / THREAD_UPDATE. */
  updateChannel(channelId: string, changes: ChannelChanges): ApiChannel {
    return updateChannel(this.#core, channelId, changes);
  }

  /** Changes a role's permissions or name: GUILD_ROLE_UPDATE. */
  updateRole(guildId: string, roleId: string, changes: RoleChanges): ApiRole {
    return updateRole(this.#core, guildId, roleId, changes);
  }

  /**
   * Leaves REST requests matching `predicate` unanswered until `release()` (or `close()`), e.g. to
   * make a client-side timeout fire deterministically.
   */
  holdRequests(predicate: (request: PendingRequest) => boolean): RequestHold {
    return this.#holds.add(predicate);
  }

  /** Raw dispatch to every matching session; returns the number of sessions reached. */
  dispatch(event: string, data: unknown, options: DispatchOptions = {}): number {
    return this.#gateway.dispatch(event, data, options);
  }

  /** Drops live gateway connections (code 4000 by default, which discord.js answers with RESUME). */
  disconnect(options: { code?: number; sessionId?: string } = {}): void {
    this.#gateway.disconnect(options.code ?? GatewayCloseCode.UnknownError, options.sessionId);
  }

  /**
   * Stops everything. Destroy discord.js clients first; clients still connected are closed with
   * code 4004 (unrecoverable for discord.js) so they stop reconnecting instead of spinning forever.
   */
  async close(): Promise<void> {
    this.notifier.cancelAll(new Error('Discord emulator closed'));
    this.#holds.releaseAll();
    await this.#gateway.close();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

import { type EmulatorCore, storeBotMessage } from './core.js';
import { ApiError, invalidBody } from './http-errors.js';
import type { InteractionState } from './interactions.js';
import { EPHEMERAL, LOADING, SETTABLE_FLAGS } from './messages.js';
import { contentTooLong, validateSendable } from './rest-channels.js';
import { asObject, param } from './rest-meta.js';
import type { RestContext, RestResult, Router } from './router.js';
import type { ApiMessage, CallbackData, InteractionWebhookRecord, JsonObject, MessageBody } from './types.js';

const CallbackType = {
  Pong: 1,
  Reply: 4,
  DeferredReply: 5,
  DeferredUpdate: 6,
  UpdateMessage: 7,
  Autocomplete: 8,
  Modal: 9,
} as const;
const KNOWN_CALLBACKS = new Set<number>([...Object.values(CallbackType), 10, 12]);
const unknownInteraction = (): ApiError => new ApiError(404, 10062, 'Unknown interaction');
const unknownWebhook = (): ApiError => new ApiError(404, 10015, 'Unknown Webhook');

/** Interaction callback and interaction-webhook (followup / @original) routes; unauthenticated like Discord's. */
export function registerInteractionRoutes(router: Router, core: EmulatorCore): void {
  const { world, interactions } = core;

  const byWebhook = (ctx: RestContext): InteractionState => {
    const state = interactions.byToken(param(ctx, 'token'));
    if (!state || param(ctx, 'appId') !== world.applicationId || !state.callback) throw unknownWebhook();
    return state;
  };
  const targetMessage = (ctx: RestContext, state: InteractionState): ApiMessage => {
    const raw = param(ctx, 'messageId');
    const id = raw === '@original' ? state.originalMessageId : raw;
    const owned =
      id !== undefined && (id === state.originalMessageId || state.webhook.some((r) => r.message?.id === id));
    const message = owned ? world.messages.get(id) : undefined;
    if (!message) throw new ApiError(404, 10008, 'Unknown Message');
    return message;
  };
  const record = (state: InteractionState, entry: Omit<InteractionWebhookRecord, 'at'>): void => {
    state.webhook.push({
      ...entry,
      message: entry.message && structuredClone(entry.message),
      at: Date.now(),
    });
    core.notifier.notify();
  };
  const metadata = (state: InteractionState): JsonObject => ({
    id: state.id,
    type: state.type,
    user: world.user(state.userId),
    authorizing_integration_owners: state.payload.authorizing_integration_owners,
    ...(state.sourceMessageId === undefined ? {} : { interacted_message_id: state.sourceMessageId }),
  });
  const createMessage = (
    state: InteractionState,
    body: MessageBody,
    ctx: RestContext,
    flags: number,
  ): ApiMessage => {
    const message = core.factory.fromBot(state.channelId, body, ctx.files, {
      webhookId: world.applicationId,
      interactionMetadata: metadata(state),
      type: state.type === 2 ? 20 : 0,
      flags,
    });
    return storeBotMessage(core, message, (flags & EPHEMERAL) !== 0);
  };

  router.add(
    'POST',
    '/interactions/:interactionId/:token/callback',
    (ctx) => {
      const state = interactions.byId(param(ctx, 'interactionId'));
      if (!state || state.token !== param(ctx, 'token')) throw unknownInteraction();
      if (state.callback) throw new ApiError(400, 40060, 'Interaction has already been acknowledged.');
      const body = asObject(ctx.body) as { type?: unknown; data?: unknown };
      const type = Number(body.type);
      if (!KNOWN_CALLBACKS.has(type))
        throw invalidBody(`type: unknown interaction callback type ${String(body.type)}`);
      const data = body.data == null ? undefined : (asObject(body.data) as CallbackData);
      const flags = Number(data?.flags ?? 0);
      if (type === CallbackType.Reply) {
        validateSendable(data ?? {}, ctx.files.length);
        state.originalMessageId = createMessage(state, data ?? {}, ctx, flags & SETTABLE_FLAGS).id;
      } else if (type === CallbackType.DeferredReply) {
        state.originalMessageId = createMessage(state, {}, ctx, LOADING | (flags & EPHEMERAL)).id;
      } else if (type === CallbackType.UpdateMessage) {
        const source =
          state.sourceMessageId === undefined ? undefined : world.messages.get(state.sourceMessageId);
        if (!source)
          throw new ApiError(400, 50035, 'Invalid Form Body: UPDATE_MESSAGE needs a component interaction');
        core.factory.applyEdit(source, data ?? {}, ctx.files);
        if ((source.flags & EPHEMERAL) === 0) core.publish.messageUpdate(source);
      } else if (type === CallbackType.DeferredUpdate && state.sourceMessageId === undefined) {
        throw invalidBody('type: DEFERRED_UPDATE_MESSAGE is only valid for component interactions');
      }
      state.callback = { type, data, files: ctx.files, at: Date.now() };
      core.notifier.notify();
      if (ctx.query.get('with_response') !== 'true') return { status: 204 };
      return {
        status: 200,
        body: callbackResponse(state, world.messages.get(state.originalMessageId ?? '')),
      };
    },
    { auth: false },
  );

  const webhookPrefix = '/webhooks/:appId/:token';
  router
    .add(
      'POST',
      webhookPrefix,
      (ctx) => {
        const state = byWebhook(ctx);
        const body: MessageBody = asObject(ctx.body ?? {});
        validateSendable(body, ctx.files.length);
        const original =
          state.originalMessageId === undefined ? undefined : world.messages.get(state.originalMessageId);
        let message: ApiMessage;
        if (
          state.callback?.type === CallbackType.DeferredReply &&
          original &&
          (original.flags & LOADING) !== 0
        ) {
          // Discord fills a still-loading deferred reply with the first followup.
          message = core.factory.applyEdit(original, body, ctx.files);
          if ((message.flags & EPHEMERAL) === 0) core.publish.messageUpdate(message);
        } else {
          message = createMessage(state, body, ctx, Number(body.flags ?? 0) & SETTABLE_FLAGS);
        }
        record(state, { kind: 'followup', messageId: message.id, body, files: ctx.files, message });
        return ctx.query.get('wait') === 'true' ? { status: 200, body: message } : { status: 204 };
      },
      { auth: false },
    )
    .add('GET', `${webhookPrefix}/messages/:messageId`, (ctx) => ok(targetMessage(ctx, byWebhook(ctx))), {
      auth: false,
    })
    .add(
      'PATCH',
      `${webhookPrefix}/messages/:messageId`,
      (ctx) => {
        const state = byWebhook(ctx);
        const message = targetMessage(ctx, state);
        const body: MessageBody = asObject(ctx.body ?? {});
        if (typeof body.content === 'string' && body.content.length > 2000) throw contentTooLong();
        core.factory.applyEdit(message, body, ctx.files);
        if ((message.flags & EPHEMERAL) === 0) core.publish.messageUpdate(message);
        record(state, { kind: 'edit', messageId: param(ctx, 'messageId'), body, files: ctx.files, message });
        return ok(message);
      },
      { auth: false },
    )
    .add(
      'DELETE',
      `${webhookPrefix}/messages/:messageId`,
      (ctx) => {
        const state = byWebhook(ctx);
        const message = targetMessage(ctx, state);
        world.deleteMessage(message.id);
        if ((message.flags & EPHEMERAL) === 0) core.publish.messageDelete(message);
        record(state, {
          kind: 'delete',
          messageId: param(ctx, 'messageId'),
          body: {},
          files: [],
          message: undefined,
        });
        return { status: 204 };
      },
      { auth: false },
    );
}

const ok = (body: unknown): RestResult => ({ status: 200, body });

function callbackResponse(state: InteractionState, message: ApiMessage | undefined): JsonObject {
  const type = state.callback?.type ?? 0;
  const about = message && {
    response_message_id: message.id,
    response_message_loading: (message.flags & LOADING) !== 0,
    response_message_ephemeral: (message.flags & EPHEMERAL) !== 0,
  };
  const withMessage = message !== undefined && type !== CallbackType.DeferredUpdate;
  return {
    interaction: { id: state.id, type: state.type, ...about },
    resource: withMessage ? { type, message } : { type },
  };
}

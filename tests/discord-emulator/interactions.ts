import { EPHEMERAL } from './messages.js';
import type { ChangeNotifier } from './notifier.js';
import type {
  ApiInteraction,
  ApiMessage,
  InteractionCallbackRecord,
  InteractionWebhookRecord,
  RecordedFile,
} from './types.js';
import type { World } from './world.js';

export interface InteractionState {
  readonly id: string;
  readonly token: string;
  /** 2 application command, 3 message component. */
  readonly type: number;
  readonly channelId: string;
  readonly guildId: string | undefined;
  readonly userId: string;
  /** The INTERACTION_CREATE payload as dispatched. */
  readonly payload: ApiInteraction;
  /** Message a component belongs to. */
  readonly sourceMessageId: string | undefined;
  callback: InteractionCallbackRecord | undefined;
  /** Message addressed as `@original` (reply, deferred reply or the component's message). */
  originalMessageId: string | undefined;
  readonly webhook: InteractionWebhookRecord[];
}

export class InteractionRegistry {
  readonly #byId = new Map<string, InteractionState>();
  readonly #byToken = new Map<string, InteractionState>();

  add(state: InteractionState): void {
    this.#byId.set(state.id, state);
    this.#byToken.set(state.token, state);
  }

  byId(id: string): InteractionState | undefined {
    return this.#byId.get(id);
  }

  byToken(token: string): InteractionState | undefined {
    return this.#byToken.get(token);
  }

  all(): InteractionState[] {
    return [...this.#byId.values()];
  }
}

/** What the user ends up seeing as the interaction's reply. */
export interface InteractionReply {
  content: string;
  flags: number;
  ephemeral: boolean;
  /** Files uploaded with the callback or with the edit that produced this reply. */
  files: RecordedFile[];
  message: ApiMessage | undefined;
  via: 'callback' | 'edit' | 'followup';
}

const DEFAULT_TIMEOUT_MS = 5_000;

/** Test-side view of one dispatched interaction. */
export class InteractionHandle {
  readonly #state: InteractionState;
  readonly #world: World;
  readonly #notifier: ChangeNotifier;

  constructor(state: InteractionState, world: World, notifier: ChangeNotifier) {
    this.#state = state;
    this.#world = world;
    this.#notifier = notifier;
  }

  get id(): string {
    return this.#state.id;
  }

  get token(): string {
    return this.#state.token;
  }

  /** The INTERACTION_CREATE `d` payload that was dispatched. */
  get payload(): ApiInteraction {
    return this.#state.payload;
  }

  get callback(): InteractionCallbackRecord | undefined {
    return this.#state.callback;
  }

  get followups(): InteractionWebhookRecord[] {
    return this.#state.webhook.filter((r) => r.kind === 'followup');
  }

  /** Edits (`PATCH .../messages/:id`) and deletes, in order. */
  get edits(): InteractionWebhookRecord[] {
    return this.#state.webhook.filter((r) => r.kind !== 'followup');
  }

  /** Current state of the `@original` message, if any. */
  get original(): ApiMessage | undefined {
    const id = this.#state.originalMessageId;
    return id === undefined ? undefined : this.#world.messages.get(id);
  }

  /** Resolves with the interaction callback (type 4/5/6/7/...) once the bot acknowledged. */
  response(timeoutMs = DEFAULT_TIMEOUT_MS): Promise<InteractionCallbackRecord> {
    return this.#notifier.waitFor(
      () => this.#state.callback,
      timeoutMs,
      `callback of interaction ${this.id}`,
    );
  }

  /** Resolves with the n-th (1-based) followup. */
  waitForFollowup(n = 1, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<InteractionWebhookRecord> {
    return this.#notifier.waitFor(
      () => this.followups[n - 1],
      timeoutMs,
      `followup #${n} of interaction ${this.id}`,
    );
  }

  /** Resolves with the n-th (1-based) edit or delete. */
  waitForEdit(n = 1, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<InteractionWebhookRecord> {
    return this.#notifier.waitFor(() => this.edits[n - 1], timeoutMs, `edit #${n} of interaction ${this.id}`);
  }

  /**
   * The reply the user sees: the type 4/7 callback payload, or, after a deferral (5/6), the
   * first edit of `@original` (or the first followup, which Discord uses to fill a deferred reply).
   */
  reply(timeoutMs = DEFAULT_TIMEOUT_MS): Promise<InteractionReply> {
    return this.#notifier.waitFor(() => this.#currentReply(), timeoutMs, `reply to interaction ${this.id}`);
  }

  #currentReply(): InteractionReply | undefined {
    const callback = this.#state.callback;
    if (!callback) return undefined;
    if (callback.type === 4 || callback.type === 7) {
      const flags = Number(callback.data?.flags ?? this.original?.flags ?? 0);
      return {
        content: String(callback.data?.content ?? ''),
        flags,
        ephemeral: (flags & EPHEMERAL) !== 0,
        files: callback.files,
        message: this.original,
        via: 'callback',
      };
    }
    const next = this.#state.webhook.find((r) => r.kind !== 'delete');
    if (!next?.message) return undefined;
    return {
      content: next.message.content,
      flags: next.message.flags,
      ephemeral: (next.message.flags & EPHEMERAL) !== 0,
      files: next.files,
      message: next.message,
      via: next.kind === 'edit' ? 'edit' : 'followup',
    };
  }
}

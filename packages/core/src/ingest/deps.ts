import type { MemoryConfig } from '../config/schema.js';
import type { EventBus } from '../observability/events.js';
import type { ChatLLM } from '../ports/chat-llm.js';
import type { Clock, IdGen } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { BudgetService } from './budgets.js';

/** Everything the ingest pipeline needs, injected by the composition root. */
export interface IngestDeps {
  readonly store: MemoryStore;
  readonly embedder: Embedder;
  /** Extraction model; null when extraction is off. */
  readonly llm: ChatLLM | null;
  /** Model for reconcile and digests (the small model when configured, else `llm`). */
  readonly smallLlm: ChatLLM | null;
  readonly clock: Clock;
  readonly ids: IdGen;
  readonly config: MemoryConfig;
  readonly events: EventBus;
  readonly budgets: BudgetService;
  readonly isBot: (userId: string) => boolean;
  readonly logger?: Logger;
  /** `strict` JSON schema mode or plain `json_object` for endpoints without schema support. */
  readonly structuredMode: 'strict' | 'json_object';
}

/** Discord jump link of a message (DM guilds use @me). */
export function messageUrl(guildId: string, channelId: string, messageId: string): string {
  const g = guildId.startsWith('dm:') ? '@me' : guildId;
  return `https://discord.com/channels/${g}/${channelId}/${messageId}`;
}

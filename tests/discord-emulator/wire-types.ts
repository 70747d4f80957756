/** Discord wire shapes (snake_case) the emulator sends and reads. */

/** Raw JSON object as sent over the wire. */
export type JsonObject = Record<string, unknown>;

export interface ApiUser {
  id: string;
  username: string;
  global_name: string | null;
  discriminator: string;
  avatar: string | null;
  bot?: boolean;
  public_flags?: number;
}

export interface ApiMember {
  user?: ApiUser;
  nick: string | null;
  roles: string[];
  joined_at: string;
  deaf: boolean;
  mute: boolean;
  flags: number;
  pending: boolean;
  avatar: string | null;
  premium_since: string | null;
  communication_disabled_until: string | null;
  permissions?: string;
}

export interface ApiRole {
  id: string;
  name: string;
  color: number;
  hoist: boolean;
  icon: null;
  unicode_emoji: null;
  position: number;
  permissions: string;
  managed: boolean;
  mentionable: boolean;
  flags: number;
}

/** A channel permission overwrite: `type` 0 role, 1 member; `allow`/`deny` are bitfield strings. */
export interface ApiOverwrite {
  id: string;
  type: 0 | 1;
  allow: string;
  deny: string;
}

export interface ApiThreadMetadata {
  archived: boolean;
  auto_archive_duration: number;
  archive_timestamp: string;
  locked: boolean;
  create_timestamp: string;
  /** Private threads only: whether non-moderators can add other non-moderators. */
  invitable?: boolean;
}

export interface ApiChannel {
  id: string;
  type: number;
  name: string;
  guild_id?: string;
  parent_id?: string | null;
  position?: number;
  topic?: string | null;
  nsfw?: boolean;
  permission_overwrites?: ApiOverwrite[];
  last_message_id?: string | null;
  rate_limit_per_user?: number;
  flags?: number;
  owner_id?: string;
  message_count?: number;
  member_count?: number;
  total_message_sent?: number;
  thread_metadata?: ApiThreadMetadata;
}

export interface ApiAttachment {
  id: string;
  filename: string;
  size: number;
  url: string;
  proxy_url: string;
  content_type?: string;
  description?: string;
}

export interface ApiMessageReference {
  type: number;
  message_id: string;
  channel_id: string;
  guild_id?: string;
}

/** A reaction emoji: Unicode (`id` null, `name` the emoji) or a custom emoji (`id`, `name`, `animated`). */
export interface ApiEmoji {
  id: string | null;
  name: string | null;
  animated?: boolean;
}

/** One emoji's reactions on a message, as Discord lists them in the message object. */
export interface ApiReaction {
  count: number;
  count_details: { burst: number; normal: number };
  me: boolean;
  me_burst: boolean;
  burst_colors: string[];
  emoji: ApiEmoji;
}

export interface ApiMessage {
  id: string;
  type: number;
  channel_id: string;
  guild_id?: string;
  author: ApiUser;
  member?: ApiMember;
  content: string;
  timestamp: string;
  edited_timestamp: string | null;
  tts: boolean;
  mention_everyone: boolean;
  mentions: (ApiUser & { member?: ApiMember })[];
  mention_roles: string[];
  attachments: ApiAttachment[];
  embeds: JsonObject[];
  components: JsonObject[];
  pinned: boolean;
  flags: number;
  nonce?: string | number;
  webhook_id?: string;
  application_id?: string;
  message_reference?: ApiMessageReference;
  referenced_message?: ApiMessage | null;
  interaction_metadata?: JsonObject;
  /** Present when someone reacted (emulated: normal reactions only, no super reactions). */
  reactions?: ApiReaction[];
}

// ---------------------------------------------------------------- bodies the bot sends (validated at use)

export interface AllowedMentionsBody {
  parse?: unknown;
  users?: unknown;
  roles?: unknown;
  replied_user?: unknown;
}

/** Fields of a message create/edit body (channel message, interaction reply, webhook). */
export interface MessageBody {
  content?: unknown;
  embeds?: unknown;
  components?: unknown;
  flags?: unknown;
  attachments?: unknown;
  allowed_mentions?: AllowedMentionsBody;
  message_reference?: { message_id?: unknown; channel_id?: unknown; fail_if_not_exists?: unknown };
  nonce?: unknown;
  tts?: unknown;
  poll?: unknown;
  sticker_ids?: unknown;
}

/** Interaction callback `data`: a message body, a modal (`custom_id`, `title`) or autocomplete `choices`. */
export interface CallbackData extends MessageBody {
  custom_id?: unknown;
  title?: unknown;
  choices?: unknown;
}

/** An application command option as registered by the bot. */
export interface CommandOptionBody {
  type?: unknown;
  name?: unknown;
  description?: unknown;
  required?: unknown;
  options?: unknown;
  choices?: unknown;
}

/** An application command as stored and returned by the emulator. */
export interface ApiCommand {
  id: string;
  application_id: string;
  version: string;
  type: number;
  name: string;
  name_localizations: unknown;
  description: string;
  description_localizations: unknown;
  options: CommandOptionBody[];
  default_member_permissions: unknown;
  dm_permission: unknown;
  nsfw: unknown;
  integration_types: unknown;
  contexts: unknown;
  guild_id?: string;
}

// ---------------------------------------------------------------- interactions (dispatched)

export interface ApiInteractionOption {
  name: string;
  type: number;
  value?: string | number | boolean;
  options?: ApiInteractionOption[];
}

export interface ApiResolved {
  users?: Record<string, ApiUser>;
  members?: Record<string, ApiMember>;
  roles?: Record<string, ApiRole>;
  channels?: Record<string, JsonObject>;
  attachments?: Record<string, ApiAttachment>;
}

export interface ApiCommandData {
  id: string;
  name: string;
  type: number;
  options: ApiInteractionOption[];
  guild_id?: string;
  resolved?: ApiResolved;
}

export interface ApiComponentData {
  custom_id: string;
  component_type: number;
  values?: string[];
}

/** The `d` of an INTERACTION_CREATE dispatch. */
export interface ApiInteraction {
  id: string;
  application_id: string;
  type: number;
  token: string;
  version: number;
  channel_id: string;
  channel: ApiChannel;
  locale: string;
  entitlements: unknown[];
  attachment_size_limit: number;
  app_permissions: string;
  authorizing_integration_owners: Record<string, string>;
  context: number;
  guild_id?: string;
  guild?: { id: string; locale: string; features: string[] };
  guild_locale?: string;
  member?: ApiMember;
  user?: ApiUser;
  data?: ApiCommandData | ApiComponentData;
  message?: ApiMessage;
}

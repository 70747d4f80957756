/**
 * Component custom ids carry everything a click needs (stateless, so any bot process can answer):
 * `pfm:<action>:<invoker id>:<expiry, base 36 ms>[:<argument>]` — at most 100 characters.
 */
export const CUSTOM_ID_PREFIX = 'pfm:';

export const ComponentAction = {
  /** Fact picker (select menu); the chosen value is a fact id. */
  FORGET_PICK: 'fpick',
  /** Next page of the fact picker; argument: the page cursor. */
  FORGET_PAGE: 'fpage',
  /** Confirms forgetting; argument: the fact id. */
  FORGET_CONFIRM: 'fok',
  /** Confirms the purge of the invoker's data. */
  PURGE_CONFIRM: 'pok',
  /** Confirms importing the server's message history. */
  IMPORT_CONFIRM: 'iok',
  /** Cancels a pending flow. */
  CANCEL: 'no',
} as const;
export type ComponentAction = (typeof ComponentAction)[keyof typeof ComponentAction];

const ACTIONS = new Set<string>(Object.values(ComponentAction));

export interface ComponentId {
  readonly action: ComponentAction;
  readonly invokerId: string;
  readonly expiresAt: number;
  readonly arg: string;
}

export function encodeComponentId(id: ComponentId): string {
  const out = `${CUSTOM_ID_PREFIX}${id.action}:${id.invokerId}:${id.expiresAt.toString(36)}${id.arg ? `:${id.arg}` : ''}`;
  if (out.length > 100) throw new RangeError('component id longer than 100 characters');
  return out;
}

/** Parses one of our custom ids; anything else (another bot feature's ids) → null. */
export function decodeComponentId(customId: string): ComponentId | null {
  if (!customId.startsWith(CUSTOM_ID_PREFIX)) return null;
  const [action, invokerId, expiry, ...rest] = customId.slice(CUSTOM_ID_PREFIX.length).split(':');
  if (!action || !ACTIONS.has(action) || !invokerId || !expiry) return null;
  const expiresAt = Number.parseInt(expiry, 36);
  if (!Number.isFinite(expiresAt)) return null;
  return { action: action as ComponentAction, invokerId, expiresAt, arg: rest.join(':') };
}

import { z } from 'zod';
import { idField, userIdField } from '../validation/fields.js';

/**
 * Who a read answers: the channel (or thread, or DM channel) the reply goes to, and the member
 * asking when known. A fact or message is visible to an audience only when the audience policy
 * allows every channel it was learned in.
 */
export const audienceSchema = z
  .object({
    channelId: idField,
    requesterId: userIdField.optional(),
  })
  .strict();
export type Audience = Readonly<z.output<typeof audienceSchema>>;
export type AudienceInput = z.input<typeof audienceSchema>;

/** A channel a fact or message was learned in; `parentId` is set when `channelId` is a thread. */
export const sourceChannelSchema = z
  .object({
    channelId: z.string().min(1),
    parentId: z.string().min(1).nullable(),
  })
  .strict();
export type SourceChannel = Readonly<z.output<typeof sourceChannelSchema>>;

/** The distinct channels of several lists, in first-seen order. */
export function mergeChannels(...lists: readonly (readonly SourceChannel[])[]): SourceChannel[] {
  const seen = new Map<string, SourceChannel>();
  for (const list of lists)
    for (const c of list)
      if (!seen.has(c.channelId)) seen.set(c.channelId, { channelId: c.channelId, parentId: c.parentId });
  return [...seen.values()];
}

/**
 * The channels of a fact's source refs (thread parents unknown: null), for facts written before
 * facts kept their channels (migrations, old exports). Refs without a channel are skipped.
 */
export function channelsOfSources(sources: readonly { readonly channelId: string }[]): SourceChannel[] {
  return mergeChannels(
    sources.filter((s) => s.channelId.length > 0).map((s) => ({ channelId: s.channelId, parentId: null })),
  );
}

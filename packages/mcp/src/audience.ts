import { z } from 'zod';

/** Who a read is for: the channel the answer will be shown in and, optionally, who asked. */
export const audienceSchema = z
  .object({
    channelId: z.string().min(1).max(128).describe('The channel the answer will be shown in.'),
    requesterId: z.string().min(1).max(128).optional().describe('The member who asked, when known.'),
  })
  .strict()
  .describe(
    'Who will see the answer: the channel it is shown in (and who asked). Required on every read, so that Permafrost can limit answers to what that audience may see.',
  );

export type Audience = z.output<typeof audienceSchema>;

/** The guild and audience part every read of @permafrost/core takes. */
export interface ReadOptions {
  readonly guildId: string;
  readonly audience: { readonly channelId: string; readonly requesterId?: string };
}

/**
 * The one place every read tool builds the common part of its core read input (recall,
 * promptContext, conversation.search, graph.*): the guild and the audience, so that every answer
 * holds only what the audience policy lets that channel see.
 */
export function readOptions(guildId: string, audience: Audience): ReadOptions {
  return {
    guildId,
    audience: {
      channelId: audience.channelId,
      ...(audience.requesterId !== undefined ? { requesterId: audience.requesterId } : {}),
    },
  };
}

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

/** The guild part every read of @permafrost/core takes. */
export interface ReadOptions {
  readonly guildId: string;
}

/**
 * THE one place every read tool builds the common part of its core read input (recall,
 * promptContext, conversation.search, graph.*). Every read goes through here.
 *
 * AUDIENCE HOOK — TODO(core audience): @permafrost/core is about to accept
 * `audience: { channelId: string; requesterId?: string }` on every read; until then its input
 * schemas are strict and reject the key, so `audience` is validated by the tool schemas and
 * deliberately NOT passed on. Once core accepts it, return `{ guildId, audience }` here (and widen
 * `ReadOptions`): every read tool then filters by audience without another change.
 */
export function readOptions(guildId: string, audience: Audience): ReadOptions {
  void audience;
  return { guildId };
}

import { z } from 'zod';
import { countField, idField as id, userIdField } from '../validation/index.js';

/** Fact ids are library-minted (`fct_` + ULID); any bounded id is accepted and looked up. */
const factRef = { guildId: id, factId: id };
const reason = z.string().min(1).max(500);

export const factRefSchema = z.object(factRef).strict();

export const getAllSchema = z
  .object({
    guildId: id,
    subjectId: userIdField.nullable(),
    includeServer: z.boolean().optional(),
    limit: countField(1000).optional(),
    random: z.boolean().optional(),
  })
  .strict();

export const updateSchema = z
  .object({
    ...factRef,
    text: z.string().max(4_000),
    reason: reason.optional(),
    actorId: userIdField.optional(),
  })
  .strict();

export const forgetSchema = z
  .object({ ...factRef, reason: reason.optional(), actorId: userIdField.optional() })
  .strict();

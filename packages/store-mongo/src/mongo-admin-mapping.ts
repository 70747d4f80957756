import type { Digest } from '@permafrost/core';
import type { DigestDoc } from './mongo-governance-docs.js';
import { docKey, finite, requireId, requireString, validDate } from './mongo-keys.js';

export const optOutKey = (guildId: string, userId: string): string => docKey(guildId, userId);
export const digestKey = (guildId: string, subjectId: string | null): string => docKey(guildId, subjectId);

export function fromDigestDoc(d: DigestDoc): Digest {
  return {
    guildId: d.guildId,
    subjectId: d.subjectId ?? null,
    text: d.text,
    generatedAt: d.generatedAt,
    sourceFactCount: d.sourceFactCount,
    channels: d.channels?.map((c) => ({ channelId: c.channelId, parentId: c.parentId ?? null })) ?? null,
  };
}

export function toDigestDoc(d: Digest): DigestDoc {
  const guildId = requireId(d.guildId, 'guildId');
  const subjectId = d.subjectId === null ? null : requireId(d.subjectId, 'subjectId');
  return {
    _id: digestKey(guildId, subjectId),
    guildId,
    subjectId,
    text: requireString(d.text, 'text'),
    generatedAt: validDate(d.generatedAt, 'generatedAt'),
    sourceFactCount: finite(d.sourceFactCount, 'sourceFactCount'),
    channels:
      d.channels?.map((c) => ({
        channelId: requireString(c.channelId, 'channelId'),
        parentId: c.parentId === null ? null : requireString(c.parentId, 'channel parentId'),
      })) ?? null,
  };
}

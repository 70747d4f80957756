// Shared by the bot processes of the three-process test.
import { createMongoStore } from '@permafrost/store-mongo';

export const AUTHORS = ['a1', 'a2', 'a3', 'a4', 'opt'];
export const CLAIMED_MESSAGES = 20;

export function coordination() {
  const base = new URL(process.env.MONGO_URL);
  base.pathname = `/${process.env.PF_DB}`;
  const url = base.toString();
  return { url, guildId: process.env.PF_GUILD, store: createMongoStore({ url }) };
}

/** Message j: author AUTHORS[j % 5], unique marker `#j` in the text. */
export function message(guildId, j) {
  const authorId = AUTHORS[j % AUTHORS.length];
  return {
    messageId: String(1600000000000000000n + BigInt(j)),
    guildId,
    channelId: `ch${j % 2}`,
    authorId,
    authorUsername: authorId,
    authorDisplayName: `Member ${authorId}`,
    content: `I really like hiking trail number ${j} on sunny days #${j}`,
    createdAt: new Date(Date.now() - 3_600_000 + j * 1000),
  };
}

/** Tries to claim the reply to the first CLAIMED_MESSAGES messages; returns the ids won. */
export async function claimAll(memory, guildId) {
  const won = [];
  for (let j = 0; j < CLAIMED_MESSAGES; j++) {
    const messageId = String(1600000000000000000n + BigInt(j));
    if (await memory.claims.tryClaim({ guildId, channelId: `ch${j % 2}`, messageId, ttlSeconds: 600 }))
      won.push(messageId);
  }
  return won;
}

export async function waitForCursor(store, guildId, name, value, maxMs) {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    if ((await store.cursors.getCursor(guildId, name)) === value) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`cursor ${name} never became ${value}`);
}

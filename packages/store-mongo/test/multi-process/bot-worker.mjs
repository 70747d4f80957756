// A bot process that extracts (workers driven by ops.runPending) with a scripted OpenAI-compatible
// model on loopback HTTP answering one fact per line of the batch author. Records every batch-author
// line it sent to its model (with the time), races for reply claims, and (PF_OPT_OUT=1) opts
// member "opt" out once phase 1 is posted. Uses the BUILT packages. Prints one JSON line.
import { createMemory } from '@permafrost/core';
import { readExtractionPrompt, startScriptedOpenAiServer } from '@permafrost/core/testing';
import { createMongoStore } from '@permafrost/store-mongo';
import { claimAll, coordination, waitForCursor } from './bot-common.mjs';

const { url, guildId, store } = coordination();
const owner = process.env.PF_OWNER;
const lines = [];
const server = await startScriptedOpenAiServer({
  handler: (req) => {
    const prompt = readExtractionPrompt(req.text);
    // One call may serve several batches: every roster entry marked as a batch author counts.
    const authors = new Set(
      [...req.text.matchAll(/^(p\d+) = .+ \(author of this batch\)$/gm)].map((m) => m[1]),
    );
    if (prompt.scope !== 'member' || authors.size === 0) return { json: { operations: [] } };
    const mine = prompt.lines.filter((l) => authors.has(l.token));
    for (const l of mine) lines.push({ marker: /#(\d+)$/.exec(l.content)?.[1] ?? null, at: Date.now() });
    return {
      json: {
        operations: mine.map((l) => ({
          subjectToken: l.token,
          speakerToken: null,
          text: `${l.name} likes hiking trail ${/#(\d+)$/.exec(l.content)?.[1] ?? ''}.`,
          category: 'interests',
          confidence: 0.8,
          sourceMessageIndexes: [l.index],
          entities: [],
          relations: [],
        })),
      },
    };
  },
});
const memory = createMemory(
  {
    storage: url,
    llm: {
      baseUrl: server.url,
      apiKey: 'stub',
      model: 'stub',
      structuredOutputs: 'json_object',
      maxRetries: 0,
    },
    embeddings: 'hashing',
    workers: { enabled: false },
  },
  { store: createMongoStore({ url }) },
);
await waitForCursor(store, guildId, 'phase', '1-posted', 200_000);
const claims = await claimAll(memory, guildId);
let optOutAt = null;
if (process.env.PF_OPT_OUT === '1') {
  await memory.admin.setOptOut({ guildId, userId: 'opt', optedOut: true });
  optOutAt = Date.now();
  await store.cursors.setCursor(guildId, 'optout', 'set');
}
const deadline = Date.now() + Number(process.env.PF_MAX_MS ?? 240_000);
let batches = 0;
while (Date.now() < deadline) {
  // flush: every pending batch now, whatever its age (leases keep the two workers apart).
  batches += await memory.flush({ guildId });
  if ((await store.cursors.getCursor(guildId, 'phase')) === 'done') {
    const c = await store.queue.counts(guildId);
    if (c.pending === 0 && c.claimed === 0) break;
  }
  await new Promise((r) => setTimeout(r, 30));
}
process.stdout.write(
  `${JSON.stringify({ role: 'worker', owner, lines, claims, optOutAt, batches, timedOut: Date.now() >= deadline })}\n`,
);
await memory.close({ drain: false });
await server.close();
await store.close();

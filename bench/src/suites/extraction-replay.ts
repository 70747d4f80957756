/**
 * The extraction suite's replay: LoCoMo conversations posted as Discord chat with lurker noise
 * between the turns, into a memory whose LLM is the scripted loopback server; what it counted.
 */
import { join } from 'node:path';
import { type BatchCompleted, createMemory } from '@permafrost/core';
import { FixedClock, type RecordedOpenAiRequest, type ScriptedOpenAiServer } from '@permafrost/core/testing';
import { stubExtractionConfig } from '../harness/stub-llm.js';
import { round } from '../harness/suite.js';
import type { Conversation } from '../locomo/dataset.js';
import { prng } from '../stats.js';

const NOISE = [
  'lol',
  'same',
  'haha',
  'nice!',
  'gg',
  '😂😂',
  'brb',
  'omg yes',
  'https://tenor.com/view/cat-dance-12345',
  'wait really?',
  'ok that is wild',
  'good morning everyone',
  'lmaooo',
  'so true',
  'cant wait',
  'who else is online',
  'yep',
  'big mood',
  'this channel is chaos today',
  'ty',
  'hahaha no way',
  'night all',
  'hmm',
  'fair enough',
  'W',
  '💀',
  'true true',
];
export const LURKERS = ['Pixel', 'Nox', 'Juno'];

const snowflake = (s: string) => {
  let h = 0n;
  for (const c of s) h = (h * 131n + BigInt(c.charCodeAt(0))) % 10n ** 17n;
  return String(10n ** 17n + h);
};

/** A plausible small extraction answer built from the prompt's message lines. */
export function extractionReply(req: RecordedOpenAiRequest): unknown {
  const lines = [
    ...req.text.matchAll(/^\[msg:(\d+)\] (.+?) \((p\d+)\)(?: replying to \[msg:\d+\])?: (.+)$/gm),
  ];
  const rich = lines.find((m) => (m[4] ?? '').split(/\s+/).length >= 8);
  if (!rich) return { operations: [] };
  const words = (rich[4] ?? '')
    .toLowerCase()
    .replace(/[^a-z\s]/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 5)
    .slice(0, 3);
  if (words.length === 0) return { operations: [] };
  return {
    operations: [
      {
        subjectToken: rich[3],
        speakerToken: null,
        text: `${rich[2]} is interested in ${words.join(', ')}.`,
        category: 'interests',
        confidence: 0.8,
        sourceMessageIndexes: [Number(rich[1])],
        entities: [],
        relations: [],
      },
    ],
  };
}

export async function replay(
  conversations: readonly Conversation[],
  server: ScriptedOpenAiServer,
  workDir: string,
  paceSeconds: number,
) {
  const rand = prng(3 + paceSeconds);
  const batches: (BatchCompleted & { noise: boolean })[] = [];
  const lurkerIds = new Set(LURKERS.map((l) => snowflake(`lurker/${l}`)));
  let messages = 0;
  let noiseMessages = 0;
  let meter: MeterAcc | null = null;
  for (const conv of conversations) {
    const clock = new FixedClock(conv.turns[0]?.at ?? new Date());
    const memory = createMemory(
      stubExtractionConfig(
        `sqlite://${join(workDir, `extraction-${paceSeconds}-${conv.sampleId}.db`)}`,
        server.url,
      ),
      { clock },
    );
    // A unit (one call, or one batch closed without a call) is noise when every batch in it is a lurker's.
    memory.events.on('BatchCompleted', (b) =>
      batches.push({ ...b, noise: b.subjectKeys.every((k) => lurkerIds.has(k)) }),
    );
    const guildId = snowflake(conv.sampleId);
    const channelId = snowflake(`${conv.sampleId}/general`);
    let session = -1;
    let n = 0;
    const post = async (authorName: string, authorId: string, content: string, at: Date, key: string) => {
      clock.set(at);
      await memory.observe({
        messageId: snowflake(`${conv.sampleId}/${key}`),
        guildId,
        channelId,
        authorId,
        authorUsername: authorName.toLowerCase(),
        authorDisplayName: authorName,
        content,
        createdAt: at,
      });
    };
    for (const t of conv.turns) {
      if (t.session !== session) {
        if (session >= 0) {
          clock.set(new Date(clock.now().getTime() + 10 * 60_000));
          await memory.ops.runPending();
        }
        session = t.session;
      }
      // The dataset spaces turns a minute apart; replace that spacing with this run's pace.
      const at = new Date(t.at.getTime() + t.index * (paceSeconds * 1000 - 60_000));
      const content = t.blipCaption ? `${t.text} [shared a photo: ${t.blipCaption}]` : t.text;
      await post(t.speaker, snowflake(`${conv.sampleId}/${t.speaker}`), content, at, t.diaId);
      messages++;
      if (rand() < 0.3) {
        const who = LURKERS[Math.floor(rand() * LURKERS.length)] as string;
        await post(
          who,
          snowflake(`lurker/${who}`),
          NOISE[Math.floor(rand() * NOISE.length)] as string,
          new Date(at.getTime() + 10_000),
          `${t.diaId}/n`,
        );
        noiseMessages++;
      }
      if (++n % 10 === 0) await memory.ops.runPending();
    }
    clock.set(new Date(clock.now().getTime() + 10 * 60_000));
    await memory.ops.runPending();
    await memory.flush();
    const snap = (await memory.ops.meterSnapshot()) as unknown as MeterAcc;
    meter = meter === null ? snap : mergeMeter(meter, snap);
    await memory.close({ drain: false });
  }
  const chatRequests = [...server.chatRequests];
  server.reset();
  const byPurpose: Record<string, number> = {};
  for (const r of chatRequests)
    byPurpose[r.purpose ?? 'unknown'] = (byPurpose[r.purpose ?? 'unknown'] ?? 0) + 1;
  const memberBatches = batches.filter((b) => b.subjectKey !== 'server' && !b.subjectKey.startsWith('__'));
  const chatter = memberBatches.filter((b) => !b.noise);
  const noise = memberBatches.filter((b) => b.noise);
  const community = batches.filter((b) => !memberBatches.includes(b));
  const extractionCallsChatter = chatter.reduce(
    (s, b) => s + (b.skipped === 'noise' || b.skipped === 'no_llm' || b.skipped === 'budget' ? 0 : 1),
    0,
  );
  const chatterCallsPer10 = (extractionCallsChatter / Math.max(1, messages)) * 10;
  const skippedNoCall = (bs: readonly BatchCompleted[]) => bs.filter((b) => b.llmCalls === 0).length;
  const noiseSkipShare = noise.length ? skippedNoCall(noise) / noise.length : null;
  const overallSkipShare = batches.length ? skippedNoCall(batches) / batches.length : null;
  const gateSkipShareChatter = chatter.length
    ? chatter.filter((b) => b.skipped === 'noise').length / chatter.length
    : null;
  const extraction = meter?.byPurpose['extraction'];
  const totalMessages = messages + noiseMessages;
  const per1000 = (x: number) => round((x / Math.max(1, totalMessages)) * 1000, 1);
  const skippedReasons: Record<string, number> = {};
  for (const b of batches)
    skippedReasons[b.skipped ?? 'extracted'] = (skippedReasons[b.skipped ?? 'extracted'] ?? 0) + 1;
  return {
    paceSeconds,
    messages,
    noiseMessages,
    totalMessages,
    batches,
    chatter,
    noise,
    community,
    byPurpose,
    llmCallsTotal: chatRequests.length,
    extractionCallsChatter,
    chatterCallsPer10,
    noiseSkipShare,
    overallSkipShare,
    gateSkipShareChatter,
    skippedNoCall: { noise: skippedNoCall(noise), all: skippedNoCall(batches) },
    per1000: {
      llmCalls: per1000(chatRequests.length),
      extractionCalls: per1000(byPurpose['extraction'] ?? 0),
      promptTokens: per1000(meter?.total['promptTokens'] ?? 0),
      completionTokens: per1000(meter?.total['completionTokens'] ?? 0),
      extractionPromptTokens: per1000(extraction?.['promptTokens'] ?? 0),
      extractionCompletionTokens: per1000(extraction?.['completionTokens'] ?? 0),
    },
    skippedReasons,
    meter,
  };
}

interface MeterAcc {
  readonly byPurpose: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly total: Readonly<Record<string, number>>;
}

function mergeMeter(a: MeterAcc, b: MeterAcc): MeterAcc {
  const add = (
    x: Readonly<Record<string, number>> | undefined,
    y: Readonly<Record<string, number>> | undefined,
  ) => {
    const out: Record<string, number> = { ...(x ?? {}) };
    for (const [k, v] of Object.entries(y ?? {})) if (typeof v === 'number') out[k] = (out[k] ?? 0) + v;
    return out;
  };
  const byPurpose: Record<string, Record<string, number>> = {};
  for (const k of new Set([...Object.keys(a.byPurpose), ...Object.keys(b.byPurpose)]))
    byPurpose[k] = add(a.byPurpose[k], b.byPurpose[k]);
  return { byPurpose, total: add(a.total, b.total) };
}

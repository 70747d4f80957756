/**
 * Suite 3 — extraction cost: LoCoMo conversations replayed as Discord chat (speaker → author,
 * session date → message time, workers off, `ops.runPending` as time advances, `flush` at the
 * end) into a memory whose LLM is a counting scripted OpenAI-compatible server on loopback HTTP.
 * Three chatter-only members ("lurkers") post short noise between the turns; their batches are
 * the labelled noise batches (batches are per author, so a lurker's batch holds only noise).
 */
import '@permafrost/store-sqlite';
import { join } from 'node:path';
import { type BatchCompleted, createMemory } from '@permafrost/core';
import {
  FixedClock,
  type RecordedOpenAiRequest,
  type ScriptedOpenAiServer,
  startScriptedOpenAiServer,
} from '@permafrost/core/testing';
import { locomoPath } from '../harness/env.js';
import { round, type Suite, type SuiteOutput, target } from '../harness/suite.js';
import { barChart } from '../harness/svg.js';
import { type Conversation, loadLocomo } from '../locomo/dataset.js';
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
const LURKERS = ['Pixel', 'Nox', 'Juno'];

const snowflake = (s: string) => {
  let h = 0n;
  for (const c of s) h = (h * 131n + BigInt(c.charCodeAt(0))) % 10n ** 17n;
  return String(10n ** 17n + h);
};

/** A plausible small extraction answer built from the prompt's message lines. */
function extractionReply(req: RecordedOpenAiRequest): unknown {
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

async function replay(
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
      {
        storage: `sqlite://${join(workDir, `extraction-${paceSeconds}-${conv.sampleId}.db`)}`,
        access: { requireAudience: false },
        llm: {
          baseUrl: server.url,
          apiKey: 'stub',
          model: 'stub-extractor',
          structuredOutputs: 'json_object',
          maxRetries: 0,
        },
        embeddings: 'hashing',
        workers: { enabled: false },
      },
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

export const extractionSuite: Suite = async (ctx): Promise<SuiteOutput> => {
  const data = locomoPath();
  if (!data)
    return {
      title: 'extraction cost',
      status: 'not-run',
      notRunReason: 'locomo10.json not found (set LOCOMO_PATH)',
      parameters: {},
      targets: [],
    };
  const conversations = (await loadLocomo(data)).slice(0, ctx.quick ? 1 : 10);
  const server = await startScriptedOpenAiServer({
    handler: (req) => {
      switch (req.purpose) {
        case 'extraction':
          return { json: extractionReply(req) };
        case 'reconcile':
          return { json: { decisions: [] } };
        case 'summarize':
          return { content: 'A community member who shares updates about daily life, hobbies and plans.' };
        case 'classify_command':
          return { json: { action: 'none', targetText: '', confidence: 0 } };
        default:
          return { json: { operations: [] } };
      }
    },
  });
  const paces = [15, 40];
  const runs = [];
  try {
    for (const pace of paces) runs.push(await replay(conversations, server, ctx.workDir, pace));
  } finally {
    await server.close();
  }
  const main = runs[0] as (typeof runs)[number];
  const {
    messages,
    noiseMessages,
    batches,
    chatter,
    noise,
    community,
    byPurpose,
    extractionCallsChatter,
    chatterCallsPer10,
    noiseSkipShare,
    overallSkipShare,
    gateSkipShareChatter,
    skippedReasons,
    meter,
  } = main;
  const totalMessages = main.totalMessages;
  const per1000 = (x: number) => round((x / Math.max(1, totalMessages)) * 1000, 1);
  const skippedNoCall = (bs: readonly BatchCompleted[]) => bs.filter((b) => b.llmCalls === 0).length;
  return {
    title: 'extraction cost on replayed LoCoMo chat (counting stub LLM over loopback HTTP)',
    parameters: {
      conversations: conversations.map((c) => c.sampleId),
      locomoMessages: messages,
      noiseMessages,
      lurkers: LURKERS.length,
      noiseRate: 0.3,
      paceSecondsBetweenTurns: paces,
      targetJudgedAtPaceSeconds: paces[0],
      batchSizeMessages: 10,
      maxAgeSeconds: 300,
      noiseGate: true,
      llm: 'startScriptedOpenAiServer (loopback), one small operation per batch with a long message',
      definitions: {
        ordinaryChatter: 'LoCoMo turns (two speakers), batched per author',
        noiseBatch:
          'a batch of a lurker (an author who posts only short chatter from a fixed list: reactions, emoji, GIF links, greetings)',
        skippedWithoutCall: 'a batch whose BatchCompleted.llmCalls is 0 (noise gate, nothing to do)',
      },
    },
    ratios: {
      extractionCallsPer10ChatterMessages: round(chatterCallsPer10),
      ...(noiseSkipShare !== null ? { noiseBatchSkipShare: round(noiseSkipShare) } : {}),
      ...(overallSkipShare !== null ? { overallBatchSkipShare: round(overallSkipShare) } : {}),
      ...(gateSkipShareChatter !== null ? { chatterBatchGateSkipShare: round(gateSkipShareChatter) } : {}),
    },
    results: {
      messages: totalMessages,
      batches: {
        total: batches.length,
        chatter: chatter.length,
        noise: noise.length,
        community: community.length,
        byOutcome: skippedReasons,
      },
      llmCallsByPurpose: byPurpose,
      llmCallsTotal: main.llmCallsTotal,
      per1000Messages: main.per1000,
      meter,
      byPace: runs.map((r) => ({
        paceSeconds: r.paceSeconds,
        chatterCallsPer10: round(r.chatterCallsPer10),
        noiseBatchSkipShare: r.noiseSkipShare === null ? null : round(r.noiseSkipShare),
        overallBatchSkipShare: r.overallSkipShare === null ? null : round(r.overallSkipShare),
        batches: r.batches.length,
        llmCallsByPurpose: r.byPurpose,
        per1000Messages: r.per1000,
      })),
    },
    targets: [
      target(
        'extraction-calls-per-10',
        'extraction calls per 10 messages of ordinary chatter (LoCoMo turns)',
        '<=',
        1,
        'calls',
        chatterCallsPer10,
      ),
      target(
        'noise-batch-skip-share',
        'share of noise batches skipped with no LLM call',
        '>=',
        0.4,
        '',
        noiseSkipShare,
      ),
    ],
    charts: [
      {
        file: 'extraction.svg',
        title: 'LLM calls per 1,000 messages by purpose',
        svg: barChart({
          title: 'LLM calls per 1,000 messages, by purpose',
          yLabel: 'calls / 1,000 messages',
          categories: Object.keys(byPurpose),
          series: [
            { name: 'calls per 1k messages', values: Object.values(byPurpose).map((v) => per1000(v)) },
          ],
        }),
      },
    ],
    notes: [
      `Turns are ${paces[0]} s apart within a session (a lively chat; LoCoMo gives only session dates) for the targets; the ${paces[1]} s run (slower chat: batches close by age with fewer messages) gives ${round(runs[1]?.chatterCallsPer10 ?? 0, 2)} extraction calls per 10 messages. Replayed ${conversations.length} LoCoMo conversation(s): ${messages.toLocaleString('en-US')} turns plus ${noiseMessages.toLocaleString('en-US')} lurker noise messages; runPending every 10 messages and 10 minutes after each session (so batches close by size or age), flush at the end. Tokens are the stub server's usage (≈ characters / 4 of prompt and answer).`,
      `Ordinary chatter: ${extractionCallsChatter} extraction calls for ${messages.toLocaleString('en-US')} LoCoMo messages in ${chatter.length} units (${round(chatterCallsPer10, 2)} per 10 messages). A member's batch is due at 10 messages or 5 minutes of age; LoCoMo speakers alternate, so one speaker's batch rarely fills alone, and due batches share a call with the guild's other pending batches (batching.maxMessagesPerCall 40). Noise batches: ${skippedNoCall(noise)} of ${noise.length} skipped with no call; all batches: ${skippedNoCall(batches)} of ${batches.length}.`,
    ],
  };
};

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

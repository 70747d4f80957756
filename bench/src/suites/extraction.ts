/**
 * Suite 3 — extraction cost: LoCoMo conversations replayed as Discord chat (speaker → author,
 * session date → message time, workers off, `ops.runPending` as time advances, `flush` at the
 * end) into a memory whose LLM is a counting scripted OpenAI-compatible server on loopback HTTP.
 * Three chatter-only members ("lurkers") post short noise between the turns; their batches are
 * the labelled noise batches (batches are per author, so a lurker's batch holds only noise).
 */
import '@permafrost/store-sqlite';
import type { BatchCompleted } from '@permafrost/core';
import { startScriptedOpenAiServer } from '@permafrost/core/testing';
import { locomoPath } from '../harness/env.js';
import { round, type Suite, type SuiteOutput, target } from '../harness/suite.js';
import { barChart } from '../harness/svg.js';
import { loadLocomo } from '../locomo/dataset.js';
import { extractionReply, LURKERS, replay } from './extraction-replay.js';

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

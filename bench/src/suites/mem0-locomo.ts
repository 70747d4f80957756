/**
 * The mem0 suite's LoCoMo part: observation-level recall@k of mem0 OSS and Permafrost on identical
 * inputs. Every observation of a conversation is a memory of one mem0 user (the conversation) and
 * a fact about its speaker in one Permafrost guild; both are scored by the same scorer
 * (locomo/scoring.ts) via the memories' dia_ids.
 */
import { join } from 'node:path';
import { loadLocomo } from '../locomo/dataset.js';
import { RecallTally } from '../locomo/scoring.js';
import { type Mem0Ctor, newMem0, newPermafrost } from './mem0-systems.js';

export interface Mem0LocomoRecall {
  mem0: Record<string, unknown>;
  permafrost: Record<string, unknown>;
  questions: number;
  permafrostRejectedObservations: number;
}

export interface Mem0LocomoInput {
  readonly Mem0: Mem0Ctor;
  /** locomo10.json. */
  readonly data: string;
  readonly workDir: string;
  /** The stub LLM's URL (mem0 never calls it with infer:false). */
  readonly llmUrl: string;
  readonly conversations: number;
  readonly ks: number[];
}

/** LoCoMo observation-level recall on identical inputs. */
export async function mem0LocomoRecall(input: Mem0LocomoInput): Promise<Mem0LocomoRecall> {
  const { Mem0, workDir, llmUrl, ks } = input;
  const convs = (await loadLocomo(input.data)).slice(0, input.conversations);
  const tm = new RecallTally(ks);
  const to = new RecallTally(ks);
  let questions = 0;
  let rejected = 0;
  for (const conv of convs) {
    const m0 = newMem0(Mem0, join(workDir, 'mem0-locomo'), conv.sampleId, llmUrl);
    const pf = newPermafrost(workDir, `locomo-${conv.sampleId}`);
    const byText = new Map<string, Set<string>>();
    const byFact = new Map<string, Set<string>>();
    for (const o of conv.observations) {
      const set = byText.get(o.text) ?? new Set<string>();
      for (const d of o.diaIds) set.add(d);
      byText.set(o.text, set);
      await m0.add([{ role: 'user', content: o.text }], { userId: conv.sampleId, infer: false });
      const f = await pf.facts
        .remember({ guildId: conv.sampleId, subjectId: o.speaker.toLowerCase(), text: o.text })
        .catch(() => null);
      if (f === null) {
        // the hygiene gate refuses some texts (e.g. questions); mem0 stores them
        rejected++;
        continue;
      }
      const fs = byFact.get(f.id) ?? new Set<string>();
      for (const d of o.diaIds) fs.add(d);
      byFact.set(f.id, fs);
    }
    for (const q of conv.questions) {
      if (q.evidence.length === 0) continue;
      const a = await m0.search(q.question, {
        filters: { user_id: conv.sampleId },
        topK: 50,
        threshold: 0,
      });
      tm.add(
        q.category,
        a.results.map((r) => [...(byText.get(r.memory) ?? [])]),
        q.evidence,
      );
      const b = await pf.recall({
        guildId: conv.sampleId,
        text: q.question,
        scope: 'guild',
        topK: 50,
        maxPerSubject: 50,
      });
      to.add(
        q.category,
        b.facts.map((f) => [...(byFact.get(f.fact.id) ?? [])]),
        q.evidence,
      );
      questions++;
    }
    await pf.close({ drain: false });
  }
  return {
    mem0: tm.summary(),
    permafrost: to.summary(),
    questions,
    permafrostRejectedObservations: rejected,
  };
}

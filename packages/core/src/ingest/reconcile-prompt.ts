import type { ReconcileInput } from '../extraction/task-contracts.js';
import type { ChatMessage, JsonSchema } from '../ports/chat-llm.js';
import { quoteUntrusted } from '../text/untrusted.js';

const SYSTEM = `You keep a memory of facts about the members of a chat community consistent. For each new candidate fact you get the existing memories it may overlap with. Decide one action per candidate:
- ADD: the candidate is new information that can be true alongside the existing memories.
- UPDATE: the candidate refines or corrects one existing memory about the same thing; give that memory's id in targetId and the merged fact in text (one third-person sentence keeping every detail that is still true).
- INVALIDATE: the candidate shows one existing memory is no longer true (a move, quitting, a breakup, a changed opinion); give its id in targetId. The candidate is stored and the old memory retired.
- NOOP: the candidate says the same as an existing memory; give that memory's id in targetId.
Only use ids listed for that candidate. Answer with {"decisions": [...]} covering every candidate.`;

export function renderReconcilePrompt(input: ReconcileInput): ChatMessage[] {
  const blocks = input.collisions.map((c) =>
    [
      `CANDIDATE ${c.candidateIndex} (about ${quoteUntrusted(c.subjectName)}, ${c.category}): ${quoteUntrusted(c.text)}`,
      'EXISTING:',
      ...c.existing.map((e) => `- [${e.id}] (${e.category}) ${quoteUntrusted(e.text)}`),
    ].join('\n'),
  );
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: blocks.join('\n\n') },
  ];
}

const nullable = (type: string) => ({ type: [type, 'null'] });

/** Strict JSON schema of the reconcile output (mirrors `reconcileOutputSchema`). */
export const RECONCILE_JSON_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['decisions'],
  properties: {
    decisions: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['candidateIndex', 'kind', 'targetId', 'text', 'reason'],
        properties: {
          candidateIndex: { type: 'integer' },
          kind: { type: 'string', enum: ['ADD', 'UPDATE', 'INVALIDATE', 'NOOP'] },
          targetId: nullable('string'),
          text: nullable('string'),
          reason: { type: 'string' },
        },
      },
    },
  },
};

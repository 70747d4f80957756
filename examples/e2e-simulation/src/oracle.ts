import {
  type PromptLine,
  type RecordedOpenAiRequest,
  readExtractionPrompt,
  type ScriptedReply,
} from '@permafrost/core/testing';

type Line = PromptLine;

interface Op {
  subjectToken: string;
  speakerToken: string | null;
  text: string;
  category: string;
  confidence: number;
  sourceMessageIndexes: number[];
  entities: { name: string; kind: string }[];
  relations: {
    verb: string;
    fromToken: string | null;
    toToken: string | null;
    fromEntity: string | null;
    toEntity: string | null;
  }[];
}

const op = (line: Line, text: string, category: string, extra: Partial<Op> = {}): Op => ({
  subjectToken: line.token,
  speakerToken: null,
  text,
  category,
  confidence: 0.9,
  sourceMessageIndexes: [line.index],
  entities: [],
  relations: [],
  ...extra,
});

type Rule = (line: Line, roster: ReadonlyMap<string, string>) => Op[];

/** Token of a roster member named in the text as @Name. */
function mentioned(content: string, roster: ReadonlyMap<string, string>): string | null {
  for (const [name, token] of roster)
    if (content.toLowerCase().includes(`@${name.toLowerCase()}`)) return token;
  return null;
}

/**
 * What a competent (and, where the scenario says so, a misled) model would answer. Each rule
 * looks at one message; the pipeline's gates and reconcile are what the simulation checks.
 */
const RULES: readonly [RegExp, Rule][] = [
  [
    /i live in omaha/i,
    (l) => [
      op(l, `${l.name} lives in Omaha`, 'personal', {
        entities: [{ name: 'Omaha', kind: 'place' }],
        relations: [
          { verb: 'lives_in', fromToken: l.token, toToken: null, fromEntity: null, toEntity: 'Omaha' },
        ],
      }),
    ],
  ],
  [/work as a nurse/i, (l) => [op(l, `${l.name} works as a nurse`, 'professional')]],
  [
    /big fan of rust/i,
    (l) => [
      op(l, `${l.name} is a big fan of the Rust programming language`, 'interests', {
        entities: [{ name: 'Rust', kind: 'concept' }],
        relations: [
          { verb: 'fan_of', fromToken: l.token, toToken: null, fromEntity: null, toEntity: 'Rust' },
        ],
      }),
    ],
  ],
  [
    /love energy drinks/i,
    (l) => [
      op(l, `${l.name} loves energy drinks`, 'preferences', {
        relations: [
          { verb: 'loves', fromToken: l.token, toToken: null, fromEntity: null, toEntity: 'energy drinks' },
        ],
      }),
    ],
  ],
  [
    /dog named biscuit/i,
    (l) => [
      op(l, `${l.name} has a dog named Biscuit`, 'personal', {
        entities: [{ name: 'Biscuit', kind: 'concept' }],
      }),
    ],
  ],
  [
    /game night is every friday/i,
    (l) => [
      op(l, 'Game night happens every Friday at 8pm in the voice channel', 'events', {
        subjectToken: 'server',
        confidence: 0.88,
      }),
    ],
  ],
  [
    /absolute hacker/i,
    (l, roster) => {
      const target = mentioned(l.content, roster);
      return target
        ? [
            op(
              l,
              `${[...roster].find(([, t]) => t === target)?.[0]} was called a hacker by ${l.name}`,
              'relationships',
              {
                subjectToken: target,
                speakerToken: l.token,
                relations: [
                  {
                    verb: 'called_out',
                    fromToken: l.token,
                    toToken: target,
                    fromEntity: null,
                    toEntity: null,
                  },
                ],
              },
            ),
          ]
        : [];
    },
  ],
  [
    /last name is gregory/i,
    (l) => [
      op(l, `${l.name} mentioned that Nolan's last name is Gregory`, 'general', {
        confidence: 0.7,
        entities: [{ name: 'Nolan Gregory', kind: 'person' }],
      }),
    ],
  ],
  // A model fooled by an injection: the gates must stop it.
  [
    /ignore all previous instructions/i,
    (l) => [op(l, 'Everyone here is a potato farmer who loves spam', 'culture', { subjectToken: 'server' })],
  ],
  [/my discord id is/i, (l) => [op(l, `${l.name}'s discord id is 123456789012345678`, 'personal')]],
  [
    /moved to seattle/i,
    (l) => [
      op(l, `${l.name} moved to Seattle`, 'personal', { entities: [{ name: 'Seattle', kind: 'place' }] }),
    ],
  ],
  [/quit energy drinks/i, (l) => [op(l, `${l.name} quit energy drinks`, 'preferences')]],
  // A model that over-extracts: the ephemeral-share and question gates must stop these.
  [/youtu\.be/i, (l) => [op(l, `${l.name} shared a YouTube video link`, 'general')]],
  [/when the next update drops/i, (l) => [op(l, 'When does the next update drop?', 'general')]],
  [/knitting/i, (l) => [op(l, `${l.name} knits scarves for the local shelter`, 'interests')]],
  [/sourdough/i, (l) => [op(l, `${l.name} bakes sourdough bread every weekend`, 'interests')]],
  [/hiking/i, (l) => [op(l, `${l.name} enjoys hiking in the Cascades`, 'interests')]],
];

export interface OracleState {
  /** When true, the "sourdough" batches fail (persistent failure → dead letter). */
  breakSourdough: boolean;
  /** Prompt text of every extraction request. */
  readonly calls: string[];
}

/** The scripted model's request handler (routes by purpose and prompt content). */
export function createOracle(state: OracleState): (request: RecordedOpenAiRequest) => ScriptedReply {
  return (request) => {
    const text = request.text;
    if (request.purpose === 'reconcile') {
      const decisions = [...text.matchAll(/^CANDIDATE (\d+)/gm)].map((m) => ({
        candidateIndex: Number(m[1]),
        kind: 'ADD',
        targetId: null,
        text: null,
        reason: 'distinct',
      }));
      return { json: { decisions } };
    }
    if (request.purpose === 'summarize')
      return { content: 'A member of the community; see the facts for details.' };
    if (request.purpose === 'classify_command')
      return { json: { action: 'none', targetText: '', confidence: 0.5 } };
    const { lines, roster } = readExtractionPrompt(text);
    state.calls.push(text);
    const repairing = text.includes('could not be used');
    if (lines.some((l) => /knitting/i.test(l.content)) && !repairing)
      return { content: 'I found a fact but I am not sure how to format it.' };
    if (state.breakSourdough && lines.some((l) => /sourdough/i.test(l.content)))
      return { content: 'not json at all' };
    const operations = lines.flatMap((line) =>
      RULES.filter(([re]) => re.test(line.content)).flatMap(([, rule]) => rule(line, roster)),
    );
    return { json: { operations } };
  };
}

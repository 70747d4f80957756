import {
  type ReadPrompt as ParsedPrompt,
  type RecordedOpenAiRequest,
  readExtractionPrompt,
  type ScriptedReply,
} from '@permafrost/core/testing';

export type { ParsedPrompt };

export interface Operation {
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

/** Reads an extraction prompt the way a model would (shared with the e2e simulation's oracle). */
export const parsePrompt = readExtractionPrompt;

export function operation(
  subjectToken: string,
  text: string,
  source: number,
  extra: Partial<Operation> = {},
): Operation {
  return {
    subjectToken,
    speakerToken: null,
    text,
    category: 'interests',
    confidence: 0.9,
    sourceMessageIndexes: [source],
    entities: [],
    relations: [],
    ...extra,
  };
}

/**
 * What a competent model answers for the reliability scenarios:
 * - "I collect W stamps" → `<author> collects W stamps` about the author;
 * - "@Name collects W stamps" → the same fact about Name, stated by the author (third party);
 * - "our server motto is W" (community scope only) → `The server motto is W` about the server;
 * - "I like hiking near W" → `<author> likes hiking near W` with a `likes` relation to entity W.
 */
export function oracleOperations(prompt: ParsedPrompt): Operation[] {
  const ops: Operation[] = [];
  for (const line of prompt.lines) {
    if (line.token === 'unknown') continue;
    if (prompt.scope === 'community') {
      const motto = /our server motto is (\w+)/i.exec(line.content);
      if (motto)
        ops.push(operation('server', `The server motto is ${motto[1]}`, line.index, { category: 'culture' }));
      continue;
    }
    const self = /\bI collect (\w+) stamps/i.exec(line.content);
    if (self) ops.push(operation(line.token, `${line.name} collects ${self[1]} stamps`, line.index));
    const other = /@(\S+) collects (\w+) stamps/i.exec(line.content);
    if (other) {
      const target = prompt.roster.get(other[1] as string);
      if (target)
        ops.push(
          operation(target, `${other[1]} collects ${other[2]} stamps`, line.index, {
            speakerToken: line.token,
          }),
        );
    }
    const hike = /\bI like hiking near (\w+)/i.exec(line.content);
    if (hike)
      ops.push(
        operation(line.token, `${line.name} likes hiking near ${hike[1]}`, line.index, {
          category: 'interests',
          entities: [{ name: hike[1] as string, kind: 'place' }],
          relations: [
            {
              verb: 'likes',
              fromToken: line.token,
              toToken: null,
              fromEntity: null,
              toEntity: hike[1] as string,
            },
          ],
        }),
      );
  }
  return ops;
}

/** Answers for the other purposes: every reconcile candidate is distinct (ADD); digests are bland. */
export function auxiliaryReply(request: RecordedOpenAiRequest): ScriptedReply | null {
  if (request.purpose === 'reconcile') {
    const decisions = [...request.text.matchAll(/^CANDIDATE (\d+)/gm)].map((m) => ({
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
  return null;
}

export type ExtractionHook = (
  request: RecordedOpenAiRequest,
  prompt: ParsedPrompt,
) => ScriptedReply | undefined | Promise<ScriptedReply | undefined>;

/**
 * A handler for `startScriptedOpenAiServer`: extraction requests are answered by `oracleOperations`
 * unless `hook` returns a reply first (faults, delays, hostile output).
 */
export function createOracle(hook?: ExtractionHook) {
  return async (request: RecordedOpenAiRequest): Promise<ScriptedReply | undefined> => {
    if (request.endpoint !== 'chat') return undefined;
    const aux = auxiliaryReply(request);
    if (aux) return aux;
    const prompt = parsePrompt(request.text);
    const hooked = await hook?.(request, prompt);
    if (hooked) return hooked;
    return { json: { operations: oracleOperations(prompt) } };
  };
}

/** Extraction requests (first attempts and repair turns) among recorded requests. */
export const extractionRequests = (requests: readonly RecordedOpenAiRequest[]) =>
  requests.filter((r) => r.endpoint === 'chat' && r.purpose === 'extraction');

/**
 * The heuristic extractor as a ChatLLM: it reads the structured `task` of each request (never
 * the prose prompt) and answers with the JSON a model would return. Offline, free, deterministic.
 */

import { classifyCommandHeuristically } from '../../extraction/command-rules.js';
import type { ChatLLM, ChatRequest, ChatResponse } from '../../ports/chat-llm.js';
import { extractHeuristically } from './extract.js';
import { reconcileHeuristically } from './reconcile.js';
import { summarizeHeuristically } from './summarize.js';
import { classifyText, isExtractionInput, isReconcileInput, isSummarizeInput } from './task-guards.js';

export const HEURISTIC_MODEL = 'heuristic-v1';

const EMPTY_EXTRACTION = JSON.stringify({ operations: [] });
const EMPTY_RECONCILE = JSON.stringify({ decisions: [] });
const EMPTY_CLASSIFICATION = JSON.stringify({ action: 'none', targetText: '', confidence: 0 });

/** The empty answer for a request the model cannot read, chosen by task kind or purpose. */
function emptyAnswer(kind: string): string {
  if (kind === 'reconcile') return EMPTY_RECONCILE;
  if (kind === 'summarize') return '';
  if (kind === 'classify_command') return EMPTY_CLASSIFICATION;
  return EMPTY_EXTRACTION;
}

/** The answer text for one request. Pure: the same request always yields the same text. */
export function answerHeuristically(request: ChatRequest): string {
  const task = request.task;
  if (task === undefined) return emptyAnswer(request.purpose);
  switch (task.kind) {
    case 'extraction':
      return isExtractionInput(task.input)
        ? JSON.stringify(extractHeuristically(task.input))
        : EMPTY_EXTRACTION;
    case 'reconcile':
      return isReconcileInput(task.input)
        ? JSON.stringify(reconcileHeuristically(task.input))
        : EMPTY_RECONCILE;
    case 'summarize':
      return isSummarizeInput(task.input) ? summarizeHeuristically(task.input) : '';
    case 'classify_command': {
      const text = classifyText(task.input);
      return text === null ? EMPTY_CLASSIFICATION : JSON.stringify(classifyCommandHeuristically(text));
    }
    case 'repair':
      // The heuristic model never emits invalid JSON; a repair turn gets the empty answer of the purpose.
      return emptyAnswer(request.purpose);
    default:
      return emptyAnswer(request.purpose);
  }
}

/** A ChatLLM backed by the heuristic extractor (`model: "heuristic-v1"`, zero tokens, zero cost). */
export function createHeuristicLlm(): ChatLLM {
  return {
    model: HEURISTIC_MODEL,
    complete(request: ChatRequest): Promise<ChatResponse> {
      if (request.signal?.aborted === true) return Promise.reject(request.signal.reason);
      let text: string;
      try {
        text = answerHeuristically(request);
      } catch {
        text = emptyAnswer(request.task?.kind ?? request.purpose);
      }
      return Promise.resolve({
        text,
        model: HEURISTIC_MODEL,
        promptTokens: 0,
        completionTokens: 0,
        costUsd: 0,
      });
    },
  };
}

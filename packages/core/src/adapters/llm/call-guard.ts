import { DEFAULT_CALL_DEADLINE_MS } from '../../config/schema.js';
import { ErrorCode } from '../../errors/error-codes.js';
import { MemoryError } from '../../errors/memory-error.js';
import type { ChatLLM, ChatRequest, ChatResponse } from '../../ports/chat-llm.js';
import type { Embedder } from '../../ports/embedder.js';

/** Outcome counters of guarded calls, for `ops.health()`. */
export interface CallOutcomes {
  /** Calls failed in a row since the last success (aborts by close not counted). */
  readonly consecutiveFailures: number;
  /** Error code of the last failure, null before any. */
  readonly lastErrorCode: string | null;
}

export interface CallGuardOptions {
  /** Longest one `complete()` may take, retries and backoff included. */
  readonly deadlineMs: number;
  /** Aborted when the memory closes: calls in flight end at once with CLOSED. */
  readonly lifetime: AbortSignal;
}

export interface GuardedChatLLM extends ChatLLM {
  readonly outcomes: CallOutcomes;
}

/**
 * Wraps a model so every call has an overall deadline and ends when the memory closes: the
 * request's signal is combined with both, and the wrapper stops waiting even for a model that
 * ignores signals. A deadline is LLM_UNAVAILABLE naming it; a close is CLOSED.
 */
export function guardChatModel(inner: ChatLLM, options: CallGuardOptions): GuardedChatLLM {
  let consecutiveFailures = 0;
  let lastErrorCode: string | null = null;
  return {
    get model() {
      return inner.model;
    },
    get outcomes() {
      return { consecutiveFailures, lastErrorCode };
    },
    async complete(request: ChatRequest): Promise<ChatResponse> {
      if (options.lifetime.aborted) throw closedError();
      const deadline = new AbortController();
      const combined = new AbortController();
      const sources = [options.lifetime, deadline.signal, ...(request.signal ? [request.signal] : [])];
      let rejectStop: (error: unknown) => void = () => undefined;
      const stopped = new Promise<never>((_, reject) => {
        rejectStop = reject;
      });
      stopped.catch(() => undefined);
      const onAbort = () => {
        const error = options.lifetime.aborted
          ? closedError()
          : deadline.signal.aborted
            ? new MemoryError(
                ErrorCode.LLM_UNAVAILABLE,
                `model "${inner.model}" did not answer within ${options.deadlineMs} ms (llm.deadlineMs)`,
              )
            : (request.signal?.reason ?? new DOMException('This operation was aborted', 'AbortError'));
        combined.abort(error);
        rejectStop(error);
      };
      for (const s of sources) s.addEventListener('abort', onAbort, { once: true });
      if (request.signal?.aborted) onAbort();
      const timer = setTimeout(() => deadline.abort(), options.deadlineMs);
      timer.unref?.();
      try {
        const response = await Promise.race([
          inner.complete({ ...request, signal: combined.signal }),
          stopped,
        ]);
        consecutiveFailures = 0;
        return response;
      } catch (error) {
        const final = combined.signal.aborted ? combined.signal.reason : error;
        if (!MemoryError.is(final, ErrorCode.CLOSED) && !request.signal?.aborted) {
          consecutiveFailures++;
          lastErrorCode = MemoryError.is(final) ? final.code : 'INTERNAL';
        }
        throw final;
      } finally {
        clearTimeout(timer);
        for (const s of sources) s.removeEventListener('abort', onAbort);
      }
    },
  };
}

function closedError(): MemoryError {
  return new MemoryError(ErrorCode.CLOSED, 'the memory was closed while a model call was in flight');
}

/**
 * Wraps an embedder so a close ends the wait for a call in flight at once (CLOSED): embedding
 * endpoints have their own per-attempt timeout, but close() must not wait for it.
 */
export function guardEmbedder(inner: Embedder, lifetime: AbortSignal): Embedder {
  return {
    get id() {
      return inner.id;
    },
    get dimensions() {
      return inner.dimensions;
    },
    ...(inner.lexical === true ? { lexical: true } : {}),
    async embed(texts) {
      if (lifetime.aborted) throw closedError();
      let onAbort: () => void = () => undefined;
      const stopped = new Promise<never>((_, reject) => {
        onAbort = () => reject(closedError());
        lifetime.addEventListener('abort', onAbort, { once: true });
      });
      stopped.catch(() => undefined);
      try {
        return await Promise.race([inner.embed(texts), stopped]);
      } finally {
        lifetime.removeEventListener('abort', onAbort);
      }
    },
    close: () => inner.close(),
  };
}

export { DEFAULT_CALL_DEADLINE_MS };

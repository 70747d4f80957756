import { ErrorCode } from '../../errors/error-codes.js';
import { MemoryError } from '../../errors/memory-error.js';
import type { ChatLLM, ChatRequest, ChatResponse } from '../../ports/chat-llm.js';
import type { Meter, MeterRecord } from '../../ports/meter.js';
import type { PricedMeter } from './meter.js';

/** Called after every successful call (e.g. to charge the guild's token budget). */
export type UsageListener = (record: MeterRecord) => void | Promise<void>;

const countsFailures = (meter: Meter): meter is PricedMeter =>
  typeof (meter as Partial<PricedMeter>).recordFailure === 'function';

/**
 * Wraps a ChatLLM so every successful call is recorded on `meter` (purpose, served model, tokens,
 * provider cost) and reported to `onUsage`, awaited before the response is returned; errors thrown
 * by `onUsage` are swallowed so accounting never fails a call. Failed calls (a MemoryError from the
 * model) carry no token counts: they are counted with `recordFailure` when the meter supports it and
 * rethrown. Aborts are not counted.
 */
export function meteredChatModel(inner: ChatLLM, meter: Meter, onUsage?: UsageListener): ChatLLM {
  return {
    get model() {
      return inner.model;
    },
    async complete(request: ChatRequest): Promise<ChatResponse> {
      let response: ChatResponse;
      try {
        response = await inner.complete(request);
      } catch (error) {
        // A call aborted because the memory closed is not a model failure.
        if (MemoryError.is(error) && !MemoryError.is(error, ErrorCode.CLOSED) && countsFailures(meter))
          meter.recordFailure(request.purpose);
        throw error;
      }
      const record: MeterRecord = {
        purpose: request.purpose,
        model: response.model,
        promptTokens: response.promptTokens,
        completionTokens: response.completionTokens,
        costUsd: response.costUsd,
        ...(request.guildId !== undefined ? { guildId: request.guildId } : {}),
      };
      meter.record(record);
      if (onUsage) {
        try {
          await onUsage(record);
        } catch {
          // Accounting must never fail the call; the listener owns its error handling.
        }
      }
      return response;
    },
  };
}

import { ErrorCode, MemoryError } from '../errors/index.js';
import { type IgnoreReason, ObserveStatus, RejectReason } from '../model/enums.js';

export interface ObserveReceipt {
  readonly messageId: string;
  readonly status: ObserveStatus;
  readonly reason: IgnoreReason | RejectReason | null;
  /**
   * With `storage_unavailable`: why, as `CODE: message` (error code and the library's message, which
   * names paths and OS errors but never content), e.g. a database file that cannot be opened.
   */
  readonly detail?: string;
}

/** `CODE: message` of a storage failure for receipts and health reports (never content). */
export function storageFailureDetail(error: unknown): string {
  return MemoryError.is(error) ? `${error.code}: ${error.message}` : 'INTERNAL: unexpected storage failure';
}

/** The receipt of a message that could not be stored because of `error`. */
export function rejectedReceipt(messageId: string, error: unknown): ObserveReceipt {
  return MemoryError.is(error, ErrorCode.CLOSED)
    ? { messageId, status: ObserveStatus.REJECTED, reason: RejectReason.CLOSED }
    : {
        messageId,
        status: ObserveStatus.REJECTED,
        reason: RejectReason.STORAGE_UNAVAILABLE,
        detail: storageFailureDetail(error),
      };
}

/** A receipt without detail. */
export const receipt = (
  messageId: string,
  status: ObserveStatus,
  reason: IgnoreReason | RejectReason | null = null,
): ObserveReceipt => ({ messageId, status, reason });

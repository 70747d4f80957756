import type { Logger } from '@permafrost/core';

/** Counts of one tool or resource kind. */
export interface CallTotals {
  readonly calls: number;
  /** Calls by outcome code: `ok`, or the error code (`SCHEMA_INVALID`, `GUILD_OUT_OF_SCOPE`, …). */
  readonly outcomes: Readonly<Record<string, number>>;
  readonly totalMs: number;
  readonly maxMs: number;
}

export interface MeterSnapshot {
  readonly startedAt: string;
  readonly tools: Readonly<Record<string, CallTotals>>;
  readonly resources: Readonly<Record<string, CallTotals>>;
}

/** What is recorded of one call: names, ids, codes and time, never content. */
export interface CallRecord {
  readonly kind: 'tool' | 'resource';
  /** Tool name, or resource kind (`stats`, `member-export`, `server-stats`). */
  readonly name: string;
  /** The guild, only when it is one the server serves (else null: ids out of scope are not logged). */
  readonly guildId: string | null;
  readonly outcome: string;
  readonly durationMs: number;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

/**
 * Per-process metering of MCP calls, shared by every connection of one server (HTTP serves each
 * request with a fresh protocol object). Each call is also logged as `mcp.call` without content.
 */
export class CallMeter {
  readonly #startedAt = new Date();
  readonly #totals = { tool: new Map<string, MutableTotals>(), resource: new Map<string, MutableTotals>() };
  readonly #logger: Logger | undefined;

  constructor(logger?: Logger) {
    this.#logger = logger;
  }

  record(r: CallRecord): void {
    const map = this.#totals[r.kind];
    const t = map.get(r.name) ?? { calls: 0, outcomes: {}, totalMs: 0, maxMs: 0 };
    t.calls++;
    t.outcomes[r.outcome] = (t.outcomes[r.outcome] ?? 0) + 1;
    t.totalMs = round(t.totalMs + r.durationMs);
    t.maxMs = Math.max(t.maxMs, round(r.durationMs));
    map.set(r.name, t);
    try {
      this.#logger?.({
        level: r.outcome === 'ok' ? 'info' : r.outcome === 'INTERNAL' ? 'error' : 'warn',
        event: 'mcp.call',
        data: {
          kind: r.kind,
          name: r.name,
          guildId: r.guildId,
          outcome: r.outcome,
          durationMs: round(r.durationMs),
        },
      });
    } catch {
      // A host logger that throws never fails a call.
    }
  }

  snapshot(): MeterSnapshot {
    const copy = (m: Map<string, MutableTotals>) =>
      Object.fromEntries([...m].map(([k, v]) => [k, { ...v, outcomes: { ...v.outcomes } }]));
    return {
      startedAt: this.#startedAt.toISOString(),
      tools: copy(this.#totals.tool),
      resources: copy(this.#totals.resource),
    };
  }
}

interface MutableTotals {
  calls: number;
  outcomes: Record<string, number>;
  totalMs: number;
  maxMs: number;
}

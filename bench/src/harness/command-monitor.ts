/**
 * Counts what a MongoDB client sends, through the driver's command monitoring (public API): every
 * command of an operation, by name and collection. Round trips are counted by the proxy in
 * harness/round-trip-clock.ts, which the client is pointed at; `countOperation` takes both.
 */
import type { MongoClient } from 'mongodb';
import type { RoundTripClock } from './round-trip-clock.js';

export interface CommandCount {
  readonly commands: number;
  /** The operation's critical path in round trips (harness/round-trip-clock.ts). */
  readonly roundTrips: number;
  readonly byCommand: Readonly<Record<string, number>>;
}

export class CommandMonitor {
  #active = false;
  #commands = 0;
  readonly #byCommand = new Map<string, number>();

  constructor(client: MongoClient) {
    client.on('commandStarted', (e) => {
      if (!this.#active) return;
      this.#commands++;
      const coll = e.command[e.commandName];
      const name = typeof coll === 'string' ? `${e.commandName} ${coll}` : e.commandName;
      this.#byCommand.set(name, (this.#byCommand.get(name) ?? 0) + 1);
    });
  }

  /** Whether an operation is being counted. */
  get active(): boolean {
    return this.#active;
  }

  /** Starts counting (forgets the previous operation). */
  begin(): void {
    this.#active = true;
    this.#commands = 0;
    this.#byCommand.clear();
  }

  /** Stops counting and returns the commands sent since `begin`. */
  end(): { commands: number; byCommand: Record<string, number> } {
    this.#active = false;
    return { commands: this.#commands, byCommand: Object.fromEntries(this.#byCommand) };
  }
}

/** Mean (two decimals) and max commands and round trips of several operations, commands by name averaged. */
export function commandStats(counts: readonly CommandCount[]) {
  const mean = (f: (c: CommandCount) => number) =>
    counts.length === 0 ? 0 : Math.round((counts.reduce((n, c) => n + f(c), 0) / counts.length) * 100) / 100;
  const byCommand: Record<string, number> = {};
  for (const c of counts)
    for (const [k, v] of Object.entries(c.byCommand)) byCommand[k] = (byCommand[k] ?? 0) + v / counts.length;
  return {
    operations: counts.length,
    meanCommands: mean((c) => c.commands),
    maxCommands: Math.max(0, ...counts.map((c) => c.commands)),
    meanRoundTrips: mean((c) => c.roundTrips),
    maxRoundTrips: Math.max(0, ...counts.map((c) => c.roundTrips)),
    byCommand: Object.fromEntries(Object.entries(byCommand).map(([k, v]) => [k, Math.round(v * 100) / 100])),
  };
}

/** Commands (driver monitoring) and round trips (the clock proxy) of one awaited operation. */
export async function countOperation<T>(
  clock: RoundTripClock,
  monitor: CommandMonitor,
  fn: () => Promise<T>,
): Promise<{ result: T; count: CommandCount }> {
  clock.begin();
  monitor.begin();
  try {
    const result = await fn();
    return { result, count: { ...monitor.end(), roundTrips: clock.end().roundTrips } };
  } finally {
    if (monitor.active) monitor.end();
    if (clock.active) clock.end();
  }
}

/**
 * Counts what a MongoDB client sends, through the driver's command monitoring (public API):
 * `commands` is every command of an operation, `roundTrips` its critical path, i.e. the longest
 * chain of commands each sent after the previous one answered. Commands sent together (point
 * reads in parallel) add one round trip, which is the latency a client far from its server pays.
 */
import type { MongoClient } from 'mongodb';

export interface CommandCount {
  readonly commands: number;
  readonly roundTrips: number;
  readonly byCommand: Readonly<Record<string, number>>;
}

export class CommandMonitor {
  #active = false;
  #commands = 0;
  #maxDepth = 0;
  #finishedDepth = 0;
  readonly #depth = new Map<number, number>();
  readonly #byCommand = new Map<string, number>();

  constructor(client: MongoClient) {
    client.on('commandStarted', (e) => {
      if (!this.#active) return;
      const depth = this.#finishedDepth + 1;
      this.#depth.set(e.requestId, depth);
      this.#maxDepth = Math.max(this.#maxDepth, depth);
      this.#commands++;
      const coll = e.command[e.commandName];
      const name = typeof coll === 'string' ? `${e.commandName} ${coll}` : e.commandName;
      this.#byCommand.set(name, (this.#byCommand.get(name) ?? 0) + 1);
    });
    const done = (e: { requestId: number }) => {
      const d = this.#depth.get(e.requestId);
      if (d === undefined) return;
      this.#depth.delete(e.requestId);
      this.#finishedDepth = Math.max(this.#finishedDepth, d);
    };
    client.on('commandSucceeded', done);
    client.on('commandFailed', done);
  }

  /** Whether an operation is being counted. */
  get active(): boolean {
    return this.#active;
  }

  /** Starts counting (forgets the previous operation). */
  begin(): void {
    this.#active = true;
    this.#commands = 0;
    this.#maxDepth = 0;
    this.#finishedDepth = 0;
    this.#depth.clear();
    this.#byCommand.clear();
  }

  /** Stops counting and returns what the operation sent. */
  end(): CommandCount {
    this.#active = false;
    return {
      commands: this.#commands,
      roundTrips: this.#maxDepth,
      byCommand: Object.fromEntries(this.#byCommand),
    };
  }

  /** Counts the commands of one awaited operation. */
  async measure<T>(fn: () => Promise<T>): Promise<{ result: T; count: CommandCount }> {
    this.begin();
    try {
      const result = await fn();
      return { result, count: this.end() };
    } finally {
      this.#active = false;
    }
  }
}

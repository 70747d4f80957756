import type { IngestEngine } from '../ingest/engine.js';
import { type MaintenanceDeps, runMaintenance } from '../lifecycle/maintenance.js';
import type { Logger } from '../ports/logger.js';

/** Ticks between community passes and maintenance checks. */
const HOUSEKEEPING_EVERY = 20;

/**
 * The background worker: asks the engine for due batches (processed `workers.count` at a time on a
 * p-queue), sleeps `pollIntervalMs` when idle, and every few ticks runs the community pass and
 * (at most hourly, store-coordinated) maintenance for active guilds.
 */
export class WorkerLoop {
  readonly #engine: IngestEngine;
  readonly #maintenance: MaintenanceDeps;
  readonly #guilds: () => Iterable<string>;
  readonly #pollMs: number;
  readonly #batchLimit: number;
  readonly #logger: Logger | undefined;
  #running = false;
  #wake: (() => void) | null = null;
  #done: Promise<void> | null = null;

  constructor(options: {
    engine: IngestEngine;
    maintenance: MaintenanceDeps;
    guilds: () => Iterable<string>;
    pollMs: number;
    batchLimit: number;
    logger?: Logger;
  }) {
    this.#engine = options.engine;
    this.#maintenance = options.maintenance;
    this.#guilds = options.guilds;
    this.#pollMs = options.pollMs;
    this.#batchLimit = options.batchLimit;
    this.#logger = options.logger;
  }

  get running(): boolean {
    return this.#running;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#done = this.#loop();
  }

  /** Stops after the current tick; resolves when the loop has exited. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#done;
  }

  async #loop(): Promise<void> {
    let tick = 0;
    while (this.#running) {
      let processed = 0;
      try {
        processed = await this.#engine.runPending({ limit: this.#batchLimit });
        if (++tick % HOUSEKEEPING_EVERY === 0) await this.#housekeeping();
      } catch (error) {
        this.#logger?.({ level: 'error', event: 'worker.tick_failed', error });
      }
      if (processed === 0 && this.#running) await this.#sleep();
    }
  }

  async #housekeeping(): Promise<void> {
    for (const guildId of this.#guilds()) {
      if (!this.#running) return;
      await this.#engine.communityPass(guildId);
      await runMaintenance(this.#maintenance, guildId);
    }
  }

  #sleep(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#wake = null;
        resolve();
      }, this.#pollMs);
      timer.unref?.();
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = null;
        resolve();
      };
    });
  }
}

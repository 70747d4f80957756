import type { Clock, IdGen } from '../ports/clock.js';

/** A clock that only moves when told to. */
export class FixedClock implements Clock {
  #now: number;

  constructor(start: Date | string = '2026-08-24T12:00:00.000Z') {
    this.#now = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.#now);
  }

  advance(ms: number): Date {
    this.#now += ms;
    return this.now();
  }

  advanceSeconds(seconds: number): Date {
    return this.advance(seconds * 1000);
  }

  advanceDays(days: number): Date {
    return this.advance(days * 86_400_000);
  }

  set(at: Date | string): void {
    this.#now = new Date(at).getTime();
  }
}

/** Sequential, sortable ids: `fct_00000001`, `fct_00000002`, … */
export function sequentialIds(): IdGen {
  let n = 0;
  return { next: (prefix) => `${prefix}_${String(++n).padStart(8, '0')}` };
}

/** Source of the current time. Synchronous so it can be read on hot paths. */
export interface Clock {
  now(): Date;
}

/** Source of new ids. `prefix` is a short type tag such as `fct`. */
export interface IdGen {
  next(prefix: string): string;
}

import type { ParseArgsConfig } from 'node:util';
import type { CommandContext } from '../context.js';
import type { ExitCode } from '../exit-codes.js';

export interface Command {
  readonly name: string;
  readonly summary: string;
  /** One usage line, e.g. `--guild <id> [--user <id>]`. */
  readonly usage: string;
  readonly options: NonNullable<ParseArgsConfig['options']>;
  /** Positional arguments the command takes (default 0); more are a usage error. */
  readonly maxPositionals?: number;
  /** Opens the store read-only: a missing file is an error and nothing is created or written. */
  readonly readOnly?: boolean;
  run(ctx: CommandContext): Promise<ExitCode | undefined>;
}

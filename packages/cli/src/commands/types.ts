import type { ParseArgsConfig } from 'node:util';
import type { CommandContext } from '../context.js';
import type { ExitCode } from '../exit-codes.js';

export interface Command {
  readonly name: string;
  readonly summary: string;
  /** One usage line, e.g. `--guild <id> [--user <id>]`. */
  readonly usage: string;
  readonly options: NonNullable<ParseArgsConfig['options']>;
  run(ctx: CommandContext): Promise<ExitCode | undefined>;
}

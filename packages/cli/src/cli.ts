import '@permafrost/store-sqlite';
import '@permafrost/store-mongo';
import { parseArgs } from 'node:util';
import { COMMANDS } from './commands/index.js';
import type { Command } from './commands/types.js';
import { COMMON_OPTIONS, type CommandContext } from './context.js';
import { describeError, ExitCode, UsageError } from './exit-codes.js';
import { createOutput, type Output } from './output.js';
import { cliVersion } from './version.js';

export { cliVersion };

const EXIT_CODES =
  'Exit codes: 0 ok, 1 failure, 2 usage, 3 configuration, 4 storage, 5 not found, 6 embedder mismatch,\n' +
  '  7 not installed, 8 model endpoint, 130 interrupted.';

function help(out: Output): void {
  out.line('permafrost — long-term memory for chat bots\n');
  out.line('Usage: permafrost <command> [options]\n');
  for (const c of COMMANDS) out.line(`  ${c.name.padEnd(12)} ${c.summary}`);
  out.line('\nCommon options: --db <url|path> (default ./permafrost.db), --llm <url|heuristic|none>,');
  out.line('  --embeddings <hashing|local[:folder]|openai://…>, --config <file.json>, --json, --verbose');
  out.line(
    'Run `permafrost <command> --help` for a command’s options; `permafrost --version` for the version.',
  );
  out.line(EXIT_CODES);
}

const usageOf = (command: Command) => `usage: permafrost ${command.name} ${command.usage}`.trimEnd();

export async function main(argv: readonly string[], cwd = process.cwd()): Promise<number> {
  const out = createOutput();
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    help(out);
    return name === undefined ? ExitCode.USAGE : ExitCode.OK;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    out.line(cliVersion());
    return ExitCode.OK;
  }
  const command = COMMANDS.find((c) => c.name === name);
  let verbose = rest.includes('--verbose');
  try {
    if (!command)
      throw new UsageError(
        name.startsWith('-')
          ? `unknown option "${name}" (a command comes first)`
          : `unknown command "${name}"`,
      );
    const { values, positionals } = parseArgs({
      args: [...rest],
      options: { ...COMMON_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    });
    verbose = values.verbose === true;
    if (values.help === true) {
      out.line(`${usageOf(command)}\n\n${command.summary}`);
      return ExitCode.OK;
    }
    const extra = positionals.slice(command.maxPositionals ?? 0);
    if (extra.length > 0) throw new UsageError(`unexpected argument "${String(extra[0]).slice(0, 40)}"`);
    const interrupted = new Promise<string>((resolve) => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve(signal));
    });
    const ctx: CommandContext = {
      out,
      values: values as CommandContext['values'],
      positionals,
      cwd,
      interrupted,
      ...(command.readOnly ? { readOnly: true } : {}),
    };
    return (await command.run(ctx)) ?? ExitCode.OK;
  } catch (error) {
    const described = describeError(
      error instanceof TypeError && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
        ? new UsageError(error.message)
        : error,
      verbose,
      command ? usageOf(command) : undefined,
    );
    for (const line of described.lines) out.error(line);
    return described.exit;
  }
}

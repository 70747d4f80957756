import '@permafrost/store-sqlite';
import '@permafrost/store-mongo';
import { parseArgs } from 'node:util';
import { COMMANDS } from './commands/index.js';
import { COMMON_OPTIONS, type CommandContext } from './context.js';
import { describeError, ExitCode, UsageError } from './exit-codes.js';
import { createOutput } from './output.js';

function help(out: ReturnType<typeof createOutput>): void {
  out.line('permafrost — long-term memory for chat bots\n');
  out.line('Usage: permafrost <command> [options]\n');
  for (const c of COMMANDS) out.line(`  ${c.name.padEnd(12)} ${c.summary}`);
  out.line('\nCommon options: --db <url|path> (default ./permafrost.db), --llm <url|heuristic|none>,');
  out.line('  --embeddings <hashing|local[:folder]|openai://…>, --config <file.json>, --json, --verbose');
  out.line('Run `permafrost <command> --help` for a command’s options. Exit codes: docs/cli.md.');
}

export async function main(argv: readonly string[], cwd = process.cwd()): Promise<number> {
  const out = createOutput();
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    help(out);
    return name === undefined ? ExitCode.USAGE : ExitCode.OK;
  }
  const command = COMMANDS.find((c) => c.name === name);
  let verbose = rest.includes('--verbose');
  try {
    if (!command) throw new UsageError(`unknown command "${name}"`);
    const { values, positionals } = parseArgs({
      args: [...rest],
      options: { ...COMMON_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    });
    verbose = values.verbose === true;
    if (values.help === true) {
      out.line(`permafrost ${command.name} ${command.usage}\n\n${command.summary}`);
      return ExitCode.OK;
    }
    const interrupted = new Promise<string>((resolve) => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve(signal));
    });
    const ctx: CommandContext = {
      out,
      values: values as CommandContext['values'],
      positionals,
      cwd,
      interrupted,
    };
    return (await command.run(ctx)) ?? ExitCode.OK;
  } catch (error) {
    const described = describeError(
      error instanceof TypeError && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
        ? new UsageError(error.message)
        : error,
      verbose,
    );
    for (const line of described.lines) out.error(line);
    return described.exit;
  }
}

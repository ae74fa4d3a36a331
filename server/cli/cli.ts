/**
 * The `baton` command line. The commands and what each takes are in one table (commands.ts);
 * this file parses strictly against it and runs the command. Logs go to stderr; stdout carries
 * only what a command prints. Exit codes: 0 done, 1 failed, 2 a usage error (the usage follows),
 * 78 a setting that cannot be used (the message says how to fix it).
 */
import { parseCommandLine, commandUsage, UsageError } from './command-line.js';
import { COMMANDS, topLevelUsage } from './commands.js';
import { ConfigurationError } from '../engine/index.js';
import { applyV8Settings } from '../v8-settings.js';
import { BATON_VERSION } from '../version.js';

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    process.stdout.write(topLevelUsage());
    return 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${BATON_VERSION}\n`);
    return 0;
  }
  if (name === 'help') {
    const entry = COMMANDS.find(({ spec }) => spec.name === rest[0]);
    process.stdout.write(entry ? commandUsage(entry.spec) : topLevelUsage());
    return entry || rest[0] === undefined ? 0 : 2;
  }
  const entry = COMMANDS.find(({ spec }) => spec.name === name);
  if (!entry) {
    process.stderr.write(`baton: unknown command "${name}".\n\n${topLevelUsage()}`);
    return 2;
  }
  const parsed = parseCommandLine(entry.spec, rest);
  if (parsed.help) {
    process.stdout.write(commandUsage(entry.spec));
    return 0;
  }
  applyV8Settings();
  return (entry.run as (values: object, positional: string | undefined, argv: string[]) => Promise<number>)(
    parsed.values,
    parsed.positional,
    rest,
  );
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${error.usage}`);
      process.exit(error.exitCode);
    }
    if (error instanceof ConfigurationError) {
      process.stderr.write(`baton: ${error.message}\n`);
      process.exit(78);
    }
    process.stderr.write(`baton: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  },
);

/**
 * How a `baton` command declares what it takes, and the one strict parser every command goes
 * through (`node:util` parseArgs with `strict: true`): an unknown flag, a flag without its value
 * or a stray argument is a usage error naming the command's usage (exit code 2), and `--help`
 * prints that usage. The usage text is rendered from the same declaration, so it cannot drift.
 */
import { parseArgs } from 'node:util';

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** One letter, as `-x`. */
  short?: string;
  /** What a string option's value is called in the usage (`FILE`, `N`, `JSON`). */
  value?: string;
  description: string;
}

export interface PositionalSpec {
  /** As shown in the usage: `tool`, `kid`. */
  name: string;
  required: boolean;
  description: string;
}

export interface CommandSpec<O extends Record<string, OptionSpec> = Record<string, OptionSpec>> {
  name: string;
  /** One line for `baton --help`. */
  summary: string;
  /** A paragraph under the usage line of `baton <command> --help`. */
  details?: string;
  positional?: PositionalSpec;
  /** A second positional after the first (`baton tasks show <id>`), given to the command as `extra`. */
  extra?: PositionalSpec;
  options: O;
}

/** The parsed values of a command's options: a string option is a string, a flag a boolean. */
export type OptionValues<O extends Record<string, OptionSpec>> = {
  [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string;
};

export interface ParsedCommandLine<O extends Record<string, OptionSpec>> {
  values: OptionValues<O>;
  positional: string | undefined;
  /** The second positional, only for a command that declares one. */
  extra?: string | undefined;
  help: boolean;
}

/** A command line the command cannot take; the message says why, `usage` what it takes. */
export class UsageError extends Error {
  readonly exitCode = 2;
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

const HELP: OptionSpec = { type: 'boolean', short: 'h', description: 'print this usage and do nothing else' };

export function commandUsage(spec: CommandSpec): string {
  const shown = (p: PositionalSpec | undefined) => (p ? (p.required ? ` <${p.name}>` : ` [${p.name}]`) : '');
  const positional = shown(spec.positional) + shown(spec.extra);
  const options = { ...spec.options, help: HELP };
  const flag = (name: string, option: OptionSpec) =>
    `${option.short ? `-${option.short}, ` : ''}--${name}${option.type === 'string' ? ` ${option.value ?? 'VALUE'}` : ''}`;
  const flags = Object.entries(options).map(([name, option]) => [flag(name, option), option.description] as const);
  const positionals = [spec.positional, spec.extra].filter((p) => p !== undefined);
  const rows = [...positionals.map((p) => [p.name, p.description] as const), ...flags];
  const width = Math.max(...rows.map(([left]) => left.length));
  const lines = rows.map(([left, description]) => {
    const [first, ...rest] = description.split('\n');
    return [`  ${left.padEnd(width)}  ${first}`, ...rest.map((line) => `  ${' '.repeat(width)}  ${line}`)].join('\n');
  });
  return [
    `Usage: baton ${spec.name}${positional}${Object.keys(spec.options).length > 0 ? ' [options]' : ''}`,
    '',
    spec.details ?? spec.summary,
    '',
    ...lines,
    '',
  ].join('\n');
}

/** Parses `argv` (the arguments after the command's name) against the command's declaration. */
export function parseCommandLine<O extends Record<string, OptionSpec>>(
  spec: CommandSpec<O>,
  argv: string[],
): ParsedCommandLine<O> {
  const options = Object.fromEntries(
    Object.entries({ ...spec.options, help: HELP }).map(([name, option]) => [
      name,
      { type: option.type, ...(option.short ? { short: option.short } : {}) },
    ]),
  );
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(`baton ${spec.name}: ${(error as Error).message}`, commandUsage(spec));
  }
  const { help, ...values } = parsed.values as Record<string, string | boolean | undefined>;
  if (help) return { values: {}, positional: undefined, help: true };
  const { positionals } = parsed;
  const allowed = (spec.positional ? 1 : 0) + (spec.extra ? 1 : 0);
  if (positionals.length > allowed) {
    throw new UsageError(`baton ${spec.name}: unexpected argument "${positionals[allowed]}"`, commandUsage(spec));
  }
  if (spec.positional?.required && positionals.length === 0) {
    throw new UsageError(`baton ${spec.name}: missing <${spec.positional.name}>`, commandUsage(spec));
  }
  return {
    values: values as OptionValues<O>,
    positional: positionals[0],
    ...(spec.extra ? { extra: positionals[1] } : {}),
    help: false,
  };
}

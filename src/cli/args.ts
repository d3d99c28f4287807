// Argument parsing shared by the CLI commands: node's parseArgs, with usage errors as exit code 2.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { jsonLine } from './terminal';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | string[] | undefined>;
export interface Parsed {
  values: Values;
  positionals: string[];
}

export function parse(argv: string[], options: Options): Parsed {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Values, positionals };
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
}

/** The command line, or undefined when it asked for --help (printed here, on stdout: exit 0). */
export function parseOrHelp(argv: string[], options: Options, help: string): Parsed | undefined {
  const parsed = parse(argv, options);
  if (!parsed.values.help) return parsed;
  console.log(help);
  return undefined;
}

/** One row of a --help options block: the flag and its text (a `\n` continues the text on the next line). */
export type HelpRow = readonly [flag: string, text: string];

/** A --help options block: `  FLAG  TEXT`, every text and continuation line starting at `column`. */
export function optionLines(rows: readonly HelpRow[], column = 20): string {
  return rows
    .map(([flag, text]) =>
      text
        .split('\n')
        .map((line, i) => (i === 0 ? `  ${flag.padEnd(column - 3)} ${line}` : `${' '.repeat(column)}${line}`))
        .join('\n'),
    )
    .join('\n');
}

export function intOption(value: unknown, name: string, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`--${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  return n;
}

export function jsonOption<T>(value: unknown, name: string): T | undefined {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(String(value)) as T;
  } catch (err) {
    throw new UsageError(`--${name} is not valid JSON: ${(err as Error).message}`);
  }
}

/** Output for humans or, with --json, one JSON document (or JSON lines for streams of events). */
export interface Out {
  json: boolean;
  line(text: string): void;
  object(value: unknown): void;
}

export function makeOut(json: boolean): Out {
  return {
    json,
    line: (text) => process.stdout.write(text + '\n'),
    object: (value) => process.stdout.write(jsonLine(value) + '\n'),
  };
}

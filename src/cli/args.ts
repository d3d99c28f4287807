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

export function parse(
  argv: string[],
  options: Options,
): { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Record<string, string | boolean | string[] | undefined>, positionals };
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
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

import { InvalidArgumentError } from 'commander';
import type { Output } from './output.js';

/** What every subcommand gets: where to write, and where to put its exit code. */
export interface CliContext {
  output: Output;
  setExitCode(code: number): void;
}

export const LAKE_OPTION_HELP = 'read a lake instead: a folder of Parquet files written by `retrace push` (never written by this command)';

export const DB_OPTION_HELP = 'the store (default: $RETRACE_DB, else ~/.local/share/retrace/retrace.duckdb)';

export function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number ≥ 1');
  return n;
}

/** The "Examples:" block every command's --help ends with. */
export function examples(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

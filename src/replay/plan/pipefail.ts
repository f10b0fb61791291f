import { parseCommandLine, type ParsedCommand } from '../../query/shell/index.js';

/**
 * Whether a step's command needs `pipefail`: the agent often trimmed what it read with a pipe
 * (`docker pull … | tail -3`), and without pipefail such a pipeline reports the exit of `tail`, so
 * a missing docker "succeeds". With pipefail the pipeline reports the failure of what it trimmed.
 * Only pipelines whose tail merely trims output for display count (tail, head, grep that prints);
 * a pipeline whose tail is a test (`grep -q`, `grep -c`, `wc`) decides the exit on purpose, and
 * pipefail there would turn an early exit (SIGPIPE upstream) into a failure: then none is set.
 * Pure.
 */

export interface PipefailNeed {
  /** Run the command with `set -o pipefail`. */
  pipefail: boolean;
  /**
   * A trimming tail that can stop reading early (`head`, `grep -m`): the command upstream may die
   * of SIGPIPE (exit 141) although nothing went wrong, which is not a failure.
   */
  sigpipeExpected: boolean;
}

const GREP = new Set(['grep', 'egrep', 'fgrep']);
/** grep options that make its exit the answer (a test), not a display filter. */
const GREP_TESTS = /^-(?:[A-Za-z]*[qcLl][A-Za-z]*|-quiet|-silent|-count|-files-with(?:out)?-match(?:es)?)$/;

type TailKind = 'trim' | 'trim-early' | 'test' | 'other';

function tailKind(command: ParsedCommand): TailKind {
  const options = command.argv.slice(1).filter((word) => word.startsWith('-'));
  if (command.program === 'tail') return 'trim';
  if (command.program === 'head') return 'trim-early';
  if (GREP.has(command.program)) {
    if (options.some((option) => GREP_TESTS.test(option))) return 'test';
    return options.some((option) => /^-(?:[A-Za-z]*m|-max-count)/.test(option)) ? 'trim-early' : 'trim';
  }
  if (command.program === 'wc' || command.program === 'test' || command.program === '[') return 'test';
  return 'other';
}

/** The last command of every pipeline of two or more commands, in the command's own shell. */
function pipelineTails(commands: readonly ParsedCommand[]): ParsedCommand[] {
  const tails: ParsedCommand[] = [];
  commands.forEach((command, index) => {
    const next = commands[index + 1];
    const endsPipeline = next === undefined || next.pipelinePosition === 0;
    if (endsPipeline && command.pipelinePosition > 0) tails.push(command);
  });
  return tails;
}

export function pipefailNeed(command: string): PipefailNeed {
  const kinds = pipelineTails(parseCommandLine(command)).map(tailKind);
  const trims = kinds.some((kind) => kind === 'trim' || kind === 'trim-early');
  if (!trims || kinds.includes('test')) return { pipefail: false, sigpipeExpected: false };
  return { pipefail: true, sigpipeExpected: kinds.includes('trim-early') };
}

/** A shell reports death by SIGPIPE as 128 + 13. */
export const SIGPIPE_EXIT = 141;

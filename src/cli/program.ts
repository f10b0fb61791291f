import { Command } from 'commander';
import { COMMANDS } from './commands/index.js';
import type { CliContext } from './context.js';
import { useRuleFolders } from '../query/rules/active.js';
import { warnRuleProblems } from './rule-problems.js';

export function buildProgram(ctx: CliContext): Command {
  const program = new Command('retrace')
    .summary('deployment transcripts → DuckDB, decision trees, safe SSH replays')
    .description(
      "Turn AI coding agents' deployment transcripts into a queryable DuckDB store, a decision tree " +
        'of probes and pivots, and a safe SSH replay of the winning path. Every command answers --help ' +
        'with examples; most answer --json.',
    )
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (text) => ctx.output.line(text.trimEnd()),
      writeErr: (text) => ctx.output.warn(text.trimEnd()),
    })
    .option('--rules <dir...>', 'more rule files (YAML) beside the built-in ones and ~/.config/retrace/rules; a file with a built-in id replaces it')
    .exitOverride();
  for (const register of COMMANDS) register(program, ctx);
  program.hook('preAction', (root) => {
    const dirs = (root.opts() as { rules?: string[] }).rules;
    if (dirs && dirs.length > 0) warnRuleProblems(useRuleFolders(dirs), ctx.output);
  });
  return program;
}

import { Command } from 'commander';
import { packageVersion } from '../core/package-root.js';
import { commandsFor } from './commands/index.js';
import type { CliContext } from './context.js';

/** The program for this command line, with the code of only the commands it needs (see `commandsFor`). */
export async function buildProgram(ctx: CliContext, argv: readonly string[]): Promise<Command> {
  const program = new Command('retrace')
    .summary('deployment transcripts → DuckDB, decision trees, safe SSH replays')
    .description(
      "Turn AI coding agents' deployment transcripts into a queryable DuckDB store, a decision tree " +
        'of probes and pivots, and a safe SSH replay of the winning path. Every command answers --help ' +
        'with examples; most answer --json.',
    )
    .version(packageVersion())
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (text) => ctx.output.line(text.trimEnd()),
      writeErr: (text) => ctx.output.warn(text.trimEnd()),
    })
    .option('--rules <dir...>', 'more rule files (YAML) beside the built-in ones and ~/.config/retrace/rules; a file with a built-in id replaces it')
    .exitOverride();
  const registers = await Promise.all(commandsFor(argv).map((command) => command.load()));
  for (const register of registers) register(program, ctx);
  program.hook('preAction', async (root) => {
    const dirs = (root.opts() as { rules?: string[] }).rules;
    if (!dirs || dirs.length === 0) return;
    // Loaded here, not at the top: the rule engine brings zod and yaml, which `--version` never needs.
    const [{ useRuleFolders }, { warnRuleProblems }] = await Promise.all([import('../query/rules/active.js'), import('./rule-problems.js')]);
    warnRuleProblems(useRuleFolders(dirs), ctx.output);
  });
  return program;
}

import type { Command } from 'commander';
import type { CliContext } from '../context.js';

type Register = (program: Command, ctx: CliContext) => void;

/**
 * Every subcommand, in the order --help lists them, each with the import that loads its code. A
 * command's module pulls in what it runs on (DuckDB's native module, ssh2, zod, the rule engine):
 * loading all of them made every run, `retrace --version` included, pay ~0.45 s before doing
 * anything. So the table holds only names and loaders; `commandsFor` picks the modules a command
 * line needs.
 */
export const COMMANDS: readonly { name: string; load: () => Promise<Register> }[] = [
  { name: 'ingest', load: async () => (await import('./ingest.js')).registerIngestCommand },
  { name: 'sessions', load: async () => (await import('./sessions.js')).registerSessionsCommand },
  { name: 'show', load: async () => (await import('./show.js')).registerShowCommand },
  { name: 'tree', load: async () => (await import('./tree.js')).registerTreeCommand },
  { name: 'why', load: async () => (await import('./why.js')).registerWhyCommand },
  { name: 'timings', load: async () => (await import('./timings.js')).registerTimingsCommand },
  { name: 'sql', load: async () => (await import('./sql.js')).registerSqlCommand },
  { name: 'plan', load: async () => (await import('./plan.js')).registerPlanCommand },
  { name: 'replay', load: async () => (await import('./replay.js')).registerReplayCommand },
  { name: 'runs', load: async () => (await import('./runs.js')).registerRunsCommand },
  { name: 'export', load: async () => (await import('./export.js')).registerExportCommand },
  { name: 'push', load: async () => (await import('./push.js')).registerPushCommand },
  { name: 'rules', load: async () => (await import('./rules.js')).registerRulesCommand },
  { name: 'quickstart', load: async () => (await import('./quickstart.js')).registerQuickstartCommand },
  { name: 'tui', load: async () => (await import('./tui.js')).registerTuiCommand },
  { name: 'doctor', load: async () => (await import('./doctor.js')).registerDoctorCommand },
];

const VERSION_FLAGS = new Set(['-V', '--version']);

/**
 * The commands whose code this command line needs: the one it names (the first argument that is a
 * command's name, before `--`); none for a bare `--version`; every one otherwise (root help, a
 * mistyped command — commander's "did you mean" needs all names, and neither is on a hot path).
 */
export function commandsFor(argv: readonly string[]): readonly (typeof COMMANDS)[number][] {
  const end = argv.indexOf('--');
  const args = end === -1 ? argv : argv.slice(0, end);
  const named = COMMANDS.find((command) => args.includes(command.name));
  if (named) return [named];
  if (args.length > 0 && args.every((arg) => VERSION_FLAGS.has(arg))) return [];
  return COMMANDS;
}

import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { registerIngestCommand } from './ingest.js';
import { registerQuickstartCommand } from './quickstart.js';
import { registerSessionsCommand } from './sessions.js';
import { registerShowCommand } from './show.js';
import { registerSqlCommand } from './sql.js';

/** Every subcommand, in the order --help lists them. */
export const COMMANDS: readonly ((program: Command, ctx: CliContext) => void)[] = [
  registerIngestCommand,
  registerSessionsCommand,
  registerShowCommand,
  registerSqlCommand,
  registerQuickstartCommand,
];

import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { registerDoctorCommand } from './doctor.js';
import { registerExportCommand } from './export.js';
import { registerIngestCommand } from './ingest.js';
import { registerPlanCommand } from './plan.js';
import { registerPushCommand } from './push.js';
import { registerQuickstartCommand } from './quickstart.js';
import { registerReplayCommand } from './replay.js';
import { registerRulesCommand } from './rules.js';
import { registerRunsCommand } from './runs.js';
import { registerSessionsCommand } from './sessions.js';
import { registerShowCommand } from './show.js';
import { registerSqlCommand } from './sql.js';
import { registerTimingsCommand } from './timings.js';
import { registerTreeCommand } from './tree.js';
import { registerTuiCommand } from './tui.js';
import { registerWhyCommand } from './why.js';

/** Every subcommand, in the order --help lists them. */
export const COMMANDS: readonly ((program: Command, ctx: CliContext) => void)[] = [
  registerIngestCommand,
  registerSessionsCommand,
  registerShowCommand,
  registerTreeCommand,
  registerWhyCommand,
  registerTimingsCommand,
  registerSqlCommand,
  registerPlanCommand,
  registerReplayCommand,
  registerRunsCommand,
  registerExportCommand,
  registerPushCommand,
  registerRulesCommand,
  registerQuickstartCommand,
  registerTuiCommand,
  registerDoctorCommand,
];

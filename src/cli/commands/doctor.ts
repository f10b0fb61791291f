import type { Command } from 'commander';
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DB_OPTION_HELP, examples, type CliContext } from '../context.js';
import { resolveDbPath } from '../db-path.js';
import { EXIT } from '../errors.js';
import type { Output } from '../output.js';
import { judgeDoctor } from '../doctor/judge.js';
import { renderDoctor } from '../doctor/render.js';
import { doctorLocations, scanLocation } from '../doctor/scan-locations.js';
import { scanStore } from '../doctor/scan-store.js';
import { scanTools } from '../doctor/scan-tools.js';
import { ADAPTERS } from '../../ingest/adapters.js';
import { readSqliteFromCopies } from '../../ingest/io/sqlite-open.js';
import { activeRuleFolders, activeRuleProblems, rulesFingerprint } from '../../query/rules/active.js';

/**
 * Read-only: reads each location as ingest would and the store as it is, and writes nothing of
 * the user's. SQLite databases (opencode.db) are read from private copies in a temporary folder,
 * removed after, because even SQLite's read-only open writes `-wal` and `-shm` beside a file.
 */
export async function doctorCommand(paths: readonly string[], options: { db: string; json: boolean }, output: Output): Promise<number> {
  const locations = [];
  const copies = mkdtempSync(join(tmpdir(), 'retrace-doctor-'));
  readSqliteFromCopies(copies);
  try {
    for (const location of doctorLocations(ADAPTERS, process.env, homedir(), process.cwd(), paths)) locations.push(await scanLocation(location, ADAPTERS));
  } finally {
    readSqliteFromCopies(null);
    rmSync(copies, { recursive: true, force: true });
  }
  const report = judgeDoctor({
    locations,
    store: await scanStore(options.db, rulesFingerprint()),
    rules: { folders: activeRuleFolders(), problems: activeRuleProblems() },
    tools: scanTools(process.env),
  });
  if (options.json) output.json(report);
  else output.line(renderDoctor(report));
  return report.ok ? EXIT.ok : EXIT.failed;
}

export function registerDoctorCommand(program: Command, ctx: CliContext): void {
  program
    .command('doctor')
    .summary('what retrace finds here: transcripts and their versions, the store, rules, tools')
    .description(
      "Check this machine, writing nothing: each default transcript location (opencode's data folder with its storage " +
        'tree and opencode.db, Claude Code projects, Codex sessions, ./sessions) and each PATH given, read as `retrace ingest` ' +
        'would read it: agent, formats, files, sessions, the versions the files state and whether retrace knows them, ' +
        'unknown records by kind and drift warnings; the store (schema, sessions per agent, derive failures, sessions never ' +
        'derived or derived by other rules); rule-file problems; the tools replay and its tests use. ' +
        'Exit 0 when all is well, 1 when something needs attention (each with what to do).',
    )
    .argument('[path...]', 'more transcript files or folders to check')
    .option('--db <file>', DB_OPTION_HELP)
    .option('--json', 'print {ok, locations, store, rules, tools, attention:[{where, problem, fix}], notes}')
    .addHelpText('after', examples(['retrace doctor', 'retrace doctor ~/laptop-copy/.claude/projects', 'retrace doctor --json | jq .attention']))
    .action(async (paths: string[], opts: { db?: string; json?: boolean }) => {
      ctx.setExitCode(await doctorCommand(paths, { db: resolveDbPath(opts.db), json: Boolean(opts.json) }, ctx.output));
    });
}

import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { DB_OPTION_HELP, examples, type CliContext } from '../context.js';
import { resolveDbPath } from '../db-path.js';
import { JobFailedError } from '../errors.js';
import { renderTable } from '../format/table.js';
import type { Output } from '../output.js';
import { NothingToReplayError, type Decision } from '../../replay/plan/extract.js';
import { planFromStore } from '../../replay/plan/load.js';
import { planToYaml } from '../../replay/plan/yaml.js';
import { resolveSession } from '../../query/session-queries.js';
import { withDerivedSessions } from '../derived-store.js';

export interface PlanOptions {
  db: string;
  out?: string;
  explain: boolean;
  json: boolean;
}

function renderDecisions(decisions: readonly Decision[]): string {
  return renderTable(
    ['message', 'call', 'kept', 'why'],
    decisions.map((d) => ({ message: `#${d.messageOrdinal}`, call: d.callId, kept: d.kept ? 'yes' : '', why: d.why })),
    { maxCellWidth: 70 },
  );
}

export async function planCommand(reference: string, options: PlanOptions, output: Output): Promise<number> {
  let sessionId = reference;
  // Trees derived by other rules are derived again first: the plan reads the stored derivation.
  return withDerivedSessions(output, options.db, async (db) => [(sessionId = (await resolveSession(db, reference)).id)], async (db) => {
    let extraction;
    try {
      extraction = await planFromStore(db, sessionId);
    } catch (error) {
      if (error instanceof NothingToReplayError) {
        if (options.explain && !options.json) output.line(renderDecisions(error.decisions));
        throw new JobFailedError(`${reference}: ${error.message}`);
      }
      throw error;
    }
    const { plan, decisions } = extraction;
    const yaml = planToYaml(plan);
    if (options.out) writeFileSync(options.out, yaml);
    if (options.json) {
      output.json({ session: plan.session.id, file: options.out ?? null, plan, decisions: options.explain ? decisions : undefined });
      return 0;
    }
    if (options.explain) {
      output.line(renderDecisions(decisions));
      output.line('');
    }
    if (options.out) {
      const files = plan.steps.filter((step) => step.file).length;
      const what = plan.purpose === 'cleanup' ? 'a clean-up plan (the session removed or stopped things; it deploys nothing)' : `candidate ${plan.candidate ?? 'unknown'}`;
      output.line(`wrote ${options.out}: ${plan.steps.length} steps on ${Object.keys(plan.roles).join(', ')}${files > 0 ? `, ${files} of them writing files` : ''} (${what})`);
      output.line(`next: retrace replay ${options.out}   (a dry run; add --live and --host ROLE=… to execute)`);
    } else if (!options.explain) {
      output.data(yaml.trimEnd());
    }
    return 0;
  });
}

export function registerPlanCommand(program: Command, ctx: CliContext): void {
  program
    .command('plan')
    .summary("write a session's winning path as an editable YAML plan")
    .description(
      "Extract the winning path of a session as a YAML plan: roles (recorded addresses as comments, never targets), " +
        'variables (image, model, network interface, node addresses; secrets as ${ENV} references, never values) and ' +
        'ordered steps with their working directory, timeouts, guards, destructive marks and what the record expects. Keeps what made ' +
        'the deployment (and the files the agent wrote that later steps need, as steps that write them); drops look-ups, failed ' +
        'steps, superseded attempts, recorded PIDs and clean-up of earlier attempts. A clean-up session gives a clean-up plan; a ' +
        'session that deployed nothing gives none, and says why (exit 1).',
    )
    .argument('<session>', 'a session id, an id prefix, or a title substring')
    .option('-o, --out <file>', 'write the plan here (default: print it)')
    .option('--explain', 'show why each tool call (each host\'s part of it) was kept or dropped')
    .option('--db <file>', DB_OPTION_HELP)
    .option('--json', 'print {session, file, plan} (and decisions with --explain)')
    .addHelpText('after', examples(['retrace plan qwen -o qwen.yaml', 'retrace plan ses_365d --explain', 'retrace plan qwen --json | jq ".plan.steps[].id"']))
    .action(async (session: string, opts: { db?: string; out?: string; explain?: boolean; json?: boolean }) => {
      ctx.setExitCode(await planCommand(session, { db: resolveDbPath(opts.db), out: opts.out, explain: Boolean(opts.explain), json: Boolean(opts.json) }, ctx.output));
    });
}

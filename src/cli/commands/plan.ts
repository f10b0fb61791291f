import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { DB_OPTION_HELP, examples, type CliContext } from '../context.js';
import { resolveDbPath } from '../db-path.js';
import { JobFailedError } from '../errors.js';
import { renderTable } from '../format/table.js';
import type { Output } from '../output.js';
import { NothingToReplayError } from '../../replay/plan/extract.js';
import { planFromStore } from '../../replay/plan/load.js';
import { planToYaml } from '../../replay/plan/yaml.js';
import { withDatabase } from '../../store/database.js';

export interface PlanOptions {
  db: string;
  out?: string;
  explain: boolean;
  json: boolean;
}

export async function planCommand(reference: string, options: PlanOptions, output: Output): Promise<number> {
  return withDatabase(options.db, { readOnly: true }, async (db) => {
    let extraction;
    try {
      extraction = await planFromStore(db, reference);
    } catch (error) {
      if (error instanceof NothingToReplayError) throw new JobFailedError(`${reference}: ${error.message}`);
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
      output.line(
        renderTable(
          ['message', 'call', 'kept', 'why'],
          decisions.map((d) => ({ message: `#${d.messageOrdinal}`, call: d.callId, kept: d.kept ? 'yes' : '', why: d.why })),
          { maxCellWidth: 70 },
        ),
      );
      output.line('');
    }
    if (options.out) {
      output.line(`wrote ${options.out}: ${plan.steps.length} steps on ${Object.keys(plan.roles).join(', ')} (candidate ${plan.candidate ?? 'unknown'})`);
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
        "ordered steps with timeouts, guards, destructive marks and what the record expects. Keeps the accepted candidate's " +
        'pull, download, cluster, serve and health steps and their setup; drops probes, look-ups and superseded attempts.',
    )
    .argument('<session>', 'a session id, an id prefix, or a title substring')
    .option('-o, --out <file>', 'write the plan here (default: print it)')
    .option('--explain', 'show why each tool call was kept or dropped')
    .option('--db <file>', DB_OPTION_HELP)
    .option('--json', 'print {session, file, plan} (and decisions with --explain)')
    .addHelpText('after', examples(['retrace plan qwen -o qwen.yaml', 'retrace plan ses_365d --explain', 'retrace plan qwen --json | jq ".plan.steps[].id"']))
    .action(async (session: string, opts: { db?: string; out?: string; explain?: boolean; json?: boolean }) => {
      ctx.setExitCode(await planCommand(session, { db: resolveDbPath(opts.db), out: opts.out, explain: Boolean(opts.explain), json: Boolean(opts.json) }, ctx.output));
    });
}

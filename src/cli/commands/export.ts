import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { DB_OPTION_HELP, LAKE_OPTION_HELP, examples, type CliContext } from '../context.js';
import { resolveStoreLocation } from '../db-path.js';
import type { StoreLocation } from '../../store/location.js';
import { JobFailedError, UsageError } from '../errors.js';
import type { Output } from '../output.js';
import { withDerivedSessions } from '../derived-store.js';
import { exportSessionParquet } from '../../query/export-parquet.js';
import { resolveSession, type SessionSummary } from '../../query/session-queries.js';
import { attemptTimings } from '../../query/timings.js';
import { loadTree } from '../../query/tree/queries.js';
import { renderMarkdownReport } from '../../query/tree/render-markdown.js';
import { renderTreeMermaid } from '../../query/tree/render-mermaid.js';
import type { DecisionTree } from '../../query/tree/types.js';
import { whyCandidate } from '../../query/why.js';
import type { Database } from '../../store/database.js';
import { INTERCHANGE_EXPORT_WRITERS } from '../export-interchange-writers.js';
import { defaultPlanExportPath, PLAN_EXPORT_FORMATS, REPLAY_EXPORT_WRITERS, writePlanExport, type PlanExportFormat } from '../export-replay-writers.js';
import { parsePlanYaml, PlanError } from '../../replay/plan/yaml.js';
import { TemplateError } from '../../replay/plan/template.js';

/**
 * `retrace export SESSION --to FORMAT`: one writer per format. A writer either returns text
 * (printed, or written to -o PATH) or writes files under a folder itself. To add a format (issue
 * 5's `sh` and `ansible`), write an ExportWriter and add it to EXPORT_WRITERS: the option's
 * choices, --help and dispatch all come from that list.
 */
export interface ExportInput {
  db: Database;
  session: SessionSummary;
  /** The session's decision tree (derived rows are current when a writer runs). */
  tree: DecisionTree;
}

export type ExportResult = { kind: 'text'; text: string } | { kind: 'files'; files: string[] };

export interface ExportWriter {
  format: string;
  description: string;
  /** Where the output goes without -o: null prints text on stdout. */
  defaultPath: (session: SessionSummary) => string | null;
  write: (input: ExportInput, path: string | null) => Promise<ExportResult>;
}

const markdownWriter: ExportWriter = {
  format: 'markdown',
  description: 'a report: goal, decision tree (text + Mermaid), candidates, pivots, rejection evidence, timings',
  defaultPath: () => null,
  write: async ({ db, session, tree }) => ({
    kind: 'text',
    text: renderMarkdownReport({
      session,
      tree,
      why: await whyCandidate(db, '', session.id),
      timings: await attemptTimings(db, { kind: 'all', sessionId: session.id }),
    }),
  }),
};

const mermaidWriter: ExportWriter = {
  format: 'mermaid',
  description: 'the decision tree as a Mermaid flowchart (.mmd)',
  defaultPath: () => null,
  write: async ({ tree }) => ({ kind: 'text', text: renderTreeMermaid(tree) }),
};

const parquetWriter: ExportWriter = {
  format: 'parquet',
  description: "the session's rows of every table, one .parquet file per table, in a folder",
  defaultPath: (session) => `retrace-${session.id}-parquet`,
  write: async ({ db, session }, path) => {
    const files = await exportSessionParquet(db, session.id, path ?? `retrace-${session.id}-parquet`);
    return { kind: 'files', files: files.map((f) => f.path) };
  },
};

export const EXPORT_WRITERS: readonly ExportWriter[] = [...REPLAY_EXPORT_WRITERS, markdownWriter, mermaidWriter, parquetWriter, ...INTERCHANGE_EXPORT_WRITERS];

/** Is the argument a plan file (rather than a session reference)? A YAML path that exists, or any path ending .yaml/.yml. */
function isPlanFile(reference: string): boolean {
  if (existsSync(reference) && statSync(reference).isFile()) return true;
  return /\.ya?ml$/i.test(reference);
}

/** `retrace export PLAN.yaml --to sh|ansible|markdown`: the plan checked as replay checks it, then written. */
function exportPlanFile(path: string, options: { to: string; out?: string; json: boolean }, output: Output): number {
  const format = PLAN_EXPORT_FORMATS.find((f) => f === options.to) as PlanExportFormat | undefined;
  if (!format) throw new UsageError(`a plan file exports to ${PLAN_EXPORT_FORMATS.join(', ')} (--to ${options.to} needs a session of the store)`);
  if (!existsSync(path)) throw new UsageError(`${path}: no such plan file`);
  let result: ExportResult;
  const label = resolve(path);
  const out = options.out ?? defaultPlanExportPath(format, basename(path).replace(/\.ya?ml$/i, ''));
  try {
    result = writePlanExport(format, parsePlanYaml(readFileSync(path, 'utf8'), label), out, label);
  } catch (error) {
    if (error instanceof PlanError || error instanceof TemplateError) throw new UsageError(error.message);
    throw error;
  }
  if (result.kind === 'text') {
    if (out) writeFileSync(out, result.text.endsWith('\n') ? result.text : `${result.text}\n`);
    if (options.json) output.json({ plan: label, format, files: out ? [out] : [], ...(out ? {} : { content: result.text }) });
    else if (out) output.line(`wrote ${out}`);
    else output.line(result.text);
    return 0;
  }
  if (options.json) output.json({ plan: label, format, files: result.files });
  else for (const file of result.files) output.line(`wrote ${file}`);
  return 0;
}

export async function exportCommand(reference: string, options: { db: StoreLocation; to: string; out?: string; json: boolean }, output: Output, writers: readonly ExportWriter[] = EXPORT_WRITERS): Promise<number> {
  if (isPlanFile(reference)) return exportPlanFile(reference, options, output);
  const writer = writers.find((w) => w.format === options.to);
  if (!writer) throw new UsageError(`unknown export format "${options.to}" (one of: ${writers.map((w) => w.format).join(', ')})`);
  let session: SessionSummary | null = null;
  return withDerivedSessions(output, 
    options.db,
    async (db) => {
      session = await resolveSession(db, reference);
      return [session.id];
    },
    async (db) => {
      const found = session as SessionSummary | null;
      if (!found) throw new JobFailedError('export: the session could not be resolved');
      const tree = await loadTree(db, found.id);
      if (!tree) throw new JobFailedError(`no decision tree for ${found.id}`);
      const path = options.out ?? writer.defaultPath(found);
      const result = await writer.write({ db, session: found, tree }, path);
      if (result.kind === 'text') {
        if (path) writeFileSync(path, result.text.endsWith('\n') ? result.text : `${result.text}\n`);
        if (options.json) output.json({ session: found.id, format: writer.format, files: path ? [path] : [], ...(path ? {} : { content: result.text }) });
        else if (path) output.line(`wrote ${path}`);
        else output.data(result.text);
        return 0;
      }
      if (options.json) output.json({ session: found.id, format: writer.format, files: result.files });
      else for (const file of result.files) output.line(`wrote ${file}`);
      return 0;
    },
  );
}

export function registerExportCommand(program: Command, ctx: CliContext): void {
  program
    .command('export')
    .summary(`export a session (${EXPORT_WRITERS.map((w) => w.format).join(', ')}) or a plan file (${PLAN_EXPORT_FORMATS.join(', ')})`)
    .description(
      `Export a session:\n${EXPORT_WRITERS.map((w) => `  ${w.format.padEnd(9)} ${w.description}`).join('\n')}\n` +
        `Or a plan file (from \`retrace plan\`, edited or not), checked as replay checks it: ${PLAN_EXPORT_FORMATS.join(', ')} (markdown: a runbook of the steps).`,
    )
    .argument('<session-or-plan>', 'a session id, an id prefix, or a title substring; or a plan YAML file')
    .addOption(new Option('--to <format>', 'the format').choices(EXPORT_WRITERS.map((w) => w.format)).makeOptionMandatory())
    .option('-o, --out <path>', 'file (or folder, for parquet) to write; text formats print to stdout without it')
    .option('--db <file>', DB_OPTION_HELP)
    .option('--lake <dir>', LAKE_OPTION_HELP)
    .option('--json', 'print {session, format, files} (and content, for text printed to stdout)')
    .addHelpText('after', examples([
      'retrace export qwen --to markdown -o qwen-report.md',
      'retrace export qwen --to mermaid > tree.mmd',
      'retrace plan qwen -o qwen.yaml && $EDITOR qwen.yaml && retrace export qwen.yaml --to sh -o replay.sh',
      'retrace export qwen.yaml --to ansible -o ./qwen-ansible && retrace export qwen.yaml --to markdown > runbook.md',
      'retrace export qwen --to atif -o qwen.atif.json && retrace ingest qwen.atif.json --db other.duckdb',
      'retrace export qwen --to otlp -o qwen.otlp.json   # OTLP/JSON spans, one per tool call',
      'retrace export ses_365d --to parquet -o ./qwen-parquet && duckdb -c "SELECT * FROM \'qwen-parquet/actions.parquet\'"',
    ]))
    .action(async (session: string, opts: { db?: string; lake?: string; to: string; out?: string; json?: boolean }) => {
      ctx.setExitCode(await exportCommand(session, { db: resolveStoreLocation(opts), to: opts.to, out: opts.out, json: Boolean(opts.json) }, ctx.output));
    });
}

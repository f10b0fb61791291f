import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { DB_OPTION_HELP, examples, type CliContext } from '../context.js';
import { resolveDbPath } from '../db-path.js';
import { JobFailedError, UsageError } from '../errors.js';
import type { Output } from '../output.js';
import { deriveStored } from '../../query/derive.js';
import { activeRuleFolders, activeRuleProblems, activeRules, useRuleFolders } from '../../query/rules/active.js';
import { checkRuleExamples } from '../../query/rules/check.js';
import { parseRuleFile, type RuleProblem } from '../../query/rules/load.js';
import type { RuleFile } from '../../query/rules/schema.js';
import { resolveSession } from '../../query/session-queries.js';
import { withDatabase } from '../../store/database.js';

/** `retrace rules list|check FILE|test FILE --session S`: the serving knowledge in force, and a user's file tried out. */

function where(problem: RuleProblem): string {
  return problem.line === null ? problem.file : `${problem.file}:${problem.line}`;
}

function listRules(options: { json: boolean }, output: Output): number {
  const rules = activeRules();
  const rows = rules.sources.map((source) => ({
    id: source.id,
    kind: source.kind,
    label: source.label,
    file: source.file,
    overrides: source.overrides,
    signatures: rules.signatures.filter((s) => s.file === source.file).map((s) => s.name),
    versions: rules.components.filter((c) => c.file === source.file).map((c) => c.component),
  }));
  const problems = activeRuleProblems();
  if (options.json) {
    output.json({ folders: activeRuleFolders(), fingerprint: rules.fingerprint, rules: rows, problems });
    return problems.length > 0 ? 1 : 0;
  }
  output.line(`Rule files in force (fingerprint ${rules.fingerprint}); folders: ${activeRuleFolders().join(', ')}`);
  for (const row of rows) {
    output.line(`  ${row.id.padEnd(14)} ${row.kind.padEnd(9)} ${row.label}  ${row.file}${row.overrides ? `  (replaces ${row.overrides})` : ''}`);
    if (row.signatures.length > 0) output.line(`      signatures: ${row.signatures.join(', ')}`);
    if (row.versions.length > 0) output.line(`      versions:   ${row.versions.join(', ')}`);
  }
  for (const problem of problems) output.warn(`retrace: ${where(problem)}: ${problem.message} (this file is left out)`);
  return problems.length > 0 ? 1 : 0;
}

function readRuleFile(path: string): { rule: RuleFile; problems: RuleProblem[] } | { rule: null; problems: RuleProblem[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
  return parseRuleFile(path, text);
}

function checkRules(file: string, options: { json: boolean }, output: Output): number {
  const path = resolve(file);
  const parsed = readRuleFile(path);
  let problems = parsed.problems;
  if (parsed.rule) {
    // Checked with the file in force, beside the built-in and user rules it will join.
    useRuleFolders([], [path]);
    problems = checkRuleExamples(path, parsed.rule, activeRules());
  }
  if (options.json) output.json({ file: path, valid: problems.length === 0, problems });
  else if (problems.length === 0) output.line(`${path}: valid; every example matches as it says`);
  else for (const problem of problems) output.line(`${where(problem)}: ${problem.message}`);
  return problems.length === 0 ? 0 : 2;
}

interface Match {
  message_ordinal: number;
  call_id: string;
  what: string;
  line: string;
}

async function testRules(file: string, options: { db: string; session: string; json: boolean }, output: Output): Promise<number> {
  const path = resolve(file);
  const parsed = readRuleFile(path);
  if (!parsed.rule) {
    for (const problem of parsed.problems) output.warn(`retrace: ${where(problem)}: ${problem.message}`);
    throw new UsageError(`${path} is not a valid rule file (run \`retrace rules check ${file}\`)`);
  }
  const rule = parsed.rule;
  useRuleFolders([], [path]);
  const signatures = new Set(rule.signatures.map((s) => s.id));
  const components = new Set(rule.versions.map((v) => v.component));
  return withDatabase(options.db, { readOnly: true }, async (db) => {
    const session = await resolveSession(db, options.session);
    const derived = await deriveStored(db, session.id);
    const matches: Match[] = [];
    for (const action of derived.actions) {
      const at = { message_ordinal: action.messageOrdinal, call_id: action.callId };
      if (action.framework === rule.id) matches.push({ ...at, what: `${action.kind} of ${rule.label} (${action.rule})`, line: action.command });
      for (const hit of action.hits) if (signatures.has(hit.name)) matches.push({ ...at, what: `signature ${hit.name}: ${hit.label}`, line: hit.line });
      for (const fact of action.facts) if (components.has(fact.component)) matches.push({ ...at, what: `version ${fact.label} ${fact.version}`, line: fact.line });
    }
    const candidates = derived.tree.candidates.filter((c) => c.framework === rule.id).map((c) => ({ name: c.name, verdict: c.verdict, reason: c.reason }));
    if (options.json) {
      output.json({ file: path, session: session.id, matches, candidates });
    } else {
      output.line(`${path} in ${session.id}${session.title ? ` "${session.title}"` : ''}: ${matches.length} match${matches.length === 1 ? '' : 'es'}`);
      for (const match of matches) output.line(`  #${match.message_ordinal} ${match.what}\n      ${match.line.slice(0, 200)}`);
      for (const candidate of candidates) output.line(`  candidate ${candidate.name}: ${candidate.verdict} — ${candidate.reason}`);
    }
    if (matches.length === 0 && !options.json) output.warn('retrace: nothing in this session matches the file');
    return 0;
  }).catch((error: unknown) => {
    if (error instanceof UsageError) throw error;
    throw error instanceof Error && /no store/.test(error.message) ? new JobFailedError(error.message) : error;
  });
}

export function registerRulesCommand(program: Command, ctx: CliContext): void {
  const rules = program
    .command('rules')
    .summary('the serving knowledge in force: list it, check a rule file, try one on a session')
    .description(
      'What retrace knows about serving stacks (names, images, launchers, readiness lines, version facts, failure ' +
        'signatures) lives in YAML rule files: built in, in ~/.config/retrace/rules/ ($XDG_CONFIG_HOME), and in any ' +
        '--rules DIR. A file with the id of a built-in one replaces it. Trees re-derive when the files change.',
    )
    .addHelpText('after', examples([
      'retrace rules list',
      'retrace rules check ~/.config/retrace/rules/fooserve.yaml',
      'retrace rules test fooserve.yaml --session qwen',
      'retrace tree qwen --rules ./my-rules',
    ]));
  rules
    .command('list')
    .description('every rule file in force, the file it came from, and its signatures and version facts')
    .option('--json', 'one JSON document')
    .action((opts: { json?: boolean }) => ctx.setExitCode(listRules({ json: Boolean(opts.json) }, ctx.output)));
  rules
    .command('check')
    .argument('<file>', 'a rule file (YAML)')
    .description('validate a rule file (errors with line numbers) and check that every example matches as it says; exit 2 when not')
    .option('--json', 'one JSON document')
    .action((file: string, opts: { json?: boolean }) => ctx.setExitCode(checkRules(file, { json: Boolean(opts.json) }, ctx.output)));
  rules
    .command('test')
    .argument('<file>', 'a rule file (YAML)')
    .requiredOption('--session <session>', 'a stored session (an id, an id prefix, or a title substring)')
    .option('--db <file>', DB_OPTION_HELP)
    .option('--json', 'one JSON document')
    .description('what the file matches in a stored session: launches, signatures with the lines they matched, version facts, candidates')
    .action(async (file: string, opts: { session: string; db?: string; json?: boolean }) => {
      ctx.setExitCode(await testRules(file, { db: resolveDbPath(opts.db), session: opts.session, json: Boolean(opts.json) }, ctx.output));
    });
}

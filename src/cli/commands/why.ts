import type { Command } from 'commander';
import { DB_OPTION_HELP, LAKE_OPTION_HELP, examples, type CliContext } from '../context.js';
import { resolveStoreLocation } from '../db-path.js';
import type { StoreLocation } from '../../store/location.js';
import { UsageError } from '../errors.js';
import { formatDuration } from '../../core/units.js';
import type { Output } from '../output.js';
import { withDerivedSessions } from '../derived-store.js';
import { resolveSession } from '../../query/session-queries.js';
import { VERDICT_MARK } from '../../query/tree/render-text.js';
import { MAX_MATCHES, countCandidateMatches, suggestCandidateNames, whyCandidate, type WhyAnswer } from '../../query/why.js';

function indentBlock(text: string, prefix: string, maxLines: number): string[] {
  const lines = text.split('\n').map((l) => l.trimEnd()).filter(Boolean);
  const shown = lines.slice(0, maxLines).map((l) => `${prefix}${l}`);
  if (lines.length > maxLines) shown.push(`${prefix}… (${lines.length - maxLines} more lines: retrace show --from/--to)`);
  return shown;
}

export function renderWhy(answer: WhyAnswer, width: number): string[] {
  const lines: string[] = [];
  lines.push(`${VERDICT_MARK[answer.verdict]} ${answer.name}  (${answer.kind}, ${answer.verdict})`);
  lines.push(`  session: ${answer.session.id}${answer.session.title ? `  "${answer.session.title}"` : ''}`);
  lines.push(`  reason:  ${answer.reason}`);
  if (answer.evidence.length === 0 && answer.mentions.length > 0) lines.push(`  named at: ${answer.mentions.map((m) => `#${m}`).join(', ')} (never tried)`);
  if (answer.evidence.length > 0) {
    lines.push('', '  evidence:');
    for (const e of answer.evidence) {
      lines.push(`  #${e.message_ordinal} ${e.kind} → ${e.outcome}${e.decisive ? '  (decisive)' : ''}${e.host ? `  on ${e.host}` : ''}  ${formatDuration(e.duration_ms)}  [${e.call_id}]`);
      const command = e.command.replace(/\s+/g, ' ');
      lines.push(`      $ ${command.length > width - 8 ? `${command.slice(0, width - 9)}…` : command}`);
      for (const line of e.lines) lines.push(`      │ ${line.length > width - 8 ? `${line.slice(0, width - 9)}…` : line}`);
    }
  }
  if (answer.followup) {
    lines.push('', `  what followed (#${answer.followup.message_ordinal}):`);
    lines.push(...indentBlock(answer.followup.text, '      ', 14));
  }
  return lines;
}

export async function whyCommand(query: string, options: { db: StoreLocation; session?: string; json: boolean }, output: Output): Promise<number> {
  // An empty name is a substring of every name: it would answer for whatever comes first.
  if (query.trim() === '') throw new UsageError('name a candidate (part of its name, e.g. scitrera); `retrace tree SESSION` lists them');
  let sessionId: string | undefined;
  return withDerivedSessions(output, 
    options.db,
    async (db) => {
      if (!options.session) return null;
      sessionId = (await resolveSession(db, options.session)).id;
      return [sessionId];
    },
    async (db) => {
      const answers = await whyCandidate(db, query, sessionId);
      if (answers.length === 0) {
        const near = await suggestCandidateNames(db, query, sessionId);
        const hint = near.length > 0 ? `; did you mean ${near.join(' or ')}?` : '; see `retrace tree SESSION` for the names';
        throw new UsageError(`no candidate matches "${query}"${sessionId ? ` in ${sessionId}` : ''}${hint}`);
      }
      const matched = answers.length < MAX_MATCHES ? answers.length : await countCandidateMatches(db, query, sessionId);
      if (options.json) {
        output.json({ query, matched, candidates: answers });
        return 0;
      }
      if (matched > 1) {
        const shown = matched > answers.length ? ` (showing the first ${answers.length})` : '';
        output.line(`${matched} candidates match "${query}"${shown}:`);
        output.line();
      }
      answers.forEach((answer, index) => {
        if (index > 0) output.line();
        for (const line of renderWhy(answer, Math.max(60, output.columns))) output.line(line);
      });
      if (matched > answers.length) {
        output.line();
        output.line(`(the first ${answers.length} of ${matched} matches; ${sessionId ? 'a longer part of the name narrows them' : 'name the session with --session, or a longer part of the name'})`);
      }
      return 0;
    },
  );
}

export function registerWhyCommand(program: Command, ctx: CliContext): void {
  program
    .command('why')
    .summary('why a candidate was rejected (or accepted): evidence and reasoning')
    .description(
      "Explain a candidate's verdict: the reason, each evidence command with the output lines that decided it " +
        "(version facts, failure signatures, health readings) and message ordinals, and the assistant's reasoning " +
        'that followed. CANDIDATE is a case-insensitive substring of the name; every match is shown (the first ' +
        `${MAX_MATCHES} across sessions without --session).`,
    )
    .argument('<candidate>', 'part of a candidate name, e.g. scitrera or sglang:spark')
    .option('--session <session>', 'only this session (an id, an id prefix, or a title substring)')
    .option('--db <file>', DB_OPTION_HELP)
    .option('--lake <dir>', LAKE_OPTION_HELP)
    .option('--json', 'print {query, matched, candidates:[{session, name, kind, verdict, reason, evidence:[{message_ordinal, call_id, command, lines…}], followup}]}')
    .addHelpText('after', examples(['retrace why scitrera', 'retrace why sglang:spark --session qwen', 'retrace why hellohal --json | jq .candidates[0].reason']))
    .action(async (candidate: string, opts: { db?: string; lake?: string; session?: string; json?: boolean }) => {
      ctx.setExitCode(await whyCommand(candidate, { db: resolveStoreLocation(opts), session: opts.session, json: Boolean(opts.json) }, ctx.output));
    });
}

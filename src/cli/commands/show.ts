import type { Command } from 'commander';
import { DB_OPTION_HELP, LAKE_OPTION_HELP, examples, positiveInteger, type CliContext } from '../context.js';
import { resolveStoreLocation } from '../db-path.js';
import type { StoreLocation } from '../../store/location.js';
import { resolveSession, sessionMessages, type MessageView, type ToolCallView } from '../../query/session-queries.js';
import { withReader } from '../../store/location.js';
import { cleanText, oneLine } from '../../core/terminal-text.js';
import { formatDuration } from '../../core/units.js';
import type { Output } from '../output.js';

export interface ShowOptions {
  db: StoreLocation;
  json: boolean;
  from?: number;
  to?: number;
}

function clip(text: string, lines: number, width: number): string[] {
  const all = cleanText(text).split('\n');
  const shown = all.slice(0, lines).map((line) => (line.length > width ? `${line.slice(0, width - 1)}…` : line));
  if (all.length > lines) shown.push(`… (${all.length - lines} more lines)`);
  return shown;
}

function callLine(call: ToolCallView): string {
  const flags = [
    call.timed_out ? 'TIMEOUT' : null,
    call.exit_code !== null && call.exit_code !== 0 ? `exit ${call.exit_code}` : null,
    call.status === 'error' ? 'error' : null,
    call.truncated ? 'truncated' : null,
    call.parallel_group ? `parallel:${call.parallel_group.slice(-6)}` : null,
  ].filter(Boolean);
  const what = call.command ?? call.title ?? call.input;
  return `    ⚙ ${oneLine(call.tool)} (${formatDuration(call.duration_ms)})${flags.length ? ` [${flags.join(', ')}]` : ''}: ${oneLine(what).slice(0, 160)}`;
}

/**
 * A compaction boundary (role `compaction`, from Claude Code's `compact_boundary` or Codex's
 * `compacted`): a rule across the story, since the agent's context restarts from a summary here.
 */
function renderCompaction(message: MessageView, width: number): string[] {
  const [first = 'Context compacted', ...rest] = message.text.split('\n');
  const when = message.created_at?.replace('T', ' ').slice(0, 19) ?? '';
  const lines = [`#${message.ordinal} ── ${first} ──  ${when}`.trimEnd()];
  const summary = rest.join('\n').trim();
  if (summary) lines.push(...clip(summary, 4, width - 4).map((l) => `    ${l}`));
  return lines;
}

function renderMessage(message: MessageView, width: number): string[] {
  if (message.role === 'compaction') return renderCompaction(message, width);
  const header = `#${message.ordinal} ${message.role}  ${message.created_at?.replace('T', ' ').slice(0, 19) ?? ''}${message.model ? `  ${message.model}` : ''}`;
  const lines = [header];
  if (message.reasoning) lines.push(...clip(message.reasoning, 4, width - 6).map((l) => `    💭 ${l}`));
  if (message.text) lines.push(...clip(message.text, 8, width - 4).map((l) => `    ${l}`));
  if (message.error) lines.push(`    ✖ ${message.error}`);
  for (const call of message.tool_calls) {
    lines.push(callLine(call));
    if (call.output) lines.push(...clip(call.output.trimEnd(), 3, width - 8).map((l) => `        ${l}`));
  }
  return lines;
}

export async function showCommand(reference: string, options: ShowOptions, output: Output): Promise<number> {
  return withReader(options.db, async (db) => {
    const session = await resolveSession(db, reference);
    const messages = await sessionMessages(db, session.id, { from: options.from, to: options.to });
    if (options.json) {
      output.json({ session, messages });
      return 0;
    }
    output.line(`${session.title ?? session.id}  (${session.agent}, ${session.messages} messages, ${session.tool_calls} tool calls)`);
    output.line(`${session.id}  ${session.started_at ?? ''} → ${session.ended_at ?? ''}`);
    const provenance = [
      session.machine ? `machine ${session.machine}` : null,
      session.directory ? `in ${session.directory}` : null,
      session.source_path ? `from ${session.source_path}` : null,
    ].filter(Boolean);
    if (provenance.length > 0) output.line(provenance.join(' · '));
    output.line();
    for (const message of messages) {
      for (const line of renderMessage(message, Math.max(60, output.columns))) output.line(line);
    }
    return 0;
  });
}

export function registerShowCommand(program: Command, ctx: CliContext): void {
  program
    .command('show')
    .summary('print a session as a story')
    .description('Print a session as a story: messages, reasoning, tool calls with their outcome and output.')
    .argument('<session>', 'a session id, an id prefix, or a title substring')
    .option('--db <file>', DB_OPTION_HELP)
    .option('--lake <dir>', LAKE_OPTION_HELP)
    .option('--from <n>', 'first message ordinal', positiveInteger)
    .option('--to <n>', 'last message ordinal', positiveInteger)
    .option('--json', 'print {session, messages:[{…, tool_calls:[…]}]}')
    .addHelpText('after', examples(['retrace show qwen --from 13 --to 14', 'retrace show ses_3a1f --json']))
    .action(async (session: string, opts: { db?: string; lake?: string; from?: number; to?: number; json?: boolean }) => {
      ctx.setExitCode(await showCommand(session, { db: resolveStoreLocation(opts), from: opts.from, to: opts.to, json: Boolean(opts.json) }, ctx.output));
    });
}

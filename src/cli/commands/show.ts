import type { Command } from 'commander';
import { DB_OPTION_HELP, LAKE_OPTION_HELP, examples, positiveInteger, type CliContext } from '../context.js';
import { resolveStoreLocation } from '../db-path.js';
import type { StoreLocation } from '../../store/location.js';
import { resolveSession, sessionMessages, type MessageView, type ToolCallView } from '../../query/session-queries.js';
import { withReader } from '../../store/location.js';
import { cleanText, oneLine } from '../../core/terminal-text.js';
import { formatDuration } from '../../core/units.js';
import type { Output } from '../output.js';
import { UsageError } from '../errors.js';
import { clipLine, clipText } from '../format/clip.js';
import { decidingLines, lastOrdinal } from '../../query/deciding-lines.js';

export interface ShowOptions {
  db: StoreLocation;
  json: boolean;
  from?: number;
  to?: number;
  /** Every text and output whole, nothing cut. */
  full?: boolean;
}

interface RenderContext {
  width: number;
  full: boolean;
  /** Per call id, the output lines that decided it (kept whole whatever is cut). */
  deciding: ReadonlyMap<string, ReadonlySet<string>>;
}

function clip(text: string, lines: number, width: number, ctx: RenderContext, keep?: ReadonlySet<string>): string[] {
  return clipText(cleanText(text), { lines, width, keep, full: ctx.full });
}

function callLine(call: ToolCallView, ctx: RenderContext): string {
  const flags = [
    call.timed_out ? 'TIMEOUT' : null,
    call.exit_code !== null && call.exit_code !== 0 ? `exit ${call.exit_code}` : null,
    call.status === 'error' ? 'error' : null,
    call.truncated ? 'truncated' : null,
    call.parallel_group ? `parallel:${call.parallel_group.slice(-6)}` : null,
  ].filter(Boolean);
  const what = call.command || call.title || call.input;
  const head = `    ⚙ ${oneLine(call.tool)} (${formatDuration(call.duration_ms)})${flags.length ? ` [${flags.join(', ')}]` : ''}: `;
  // The command is what a reader looks for: at least 160 characters of it, as before any cut was said.
  return head + clipLine(oneLine(what), Math.max(160, ctx.width - [...head].length), ctx.full);
}

/**
 * A compaction boundary (role `compaction`, from Claude Code's `compact_boundary` or Codex's
 * `compacted`): a rule across the story, since the agent's context restarts from a summary here.
 */
function renderCompaction(message: MessageView, ctx: RenderContext): string[] {
  const [first = 'Context compacted', ...rest] = message.text.split('\n');
  const when = message.created_at?.replace('T', ' ').slice(0, 19) ?? '';
  const lines = [`#${message.ordinal} ── ${first} ──  ${when}`.trimEnd()];
  const summary = rest.join('\n').trim();
  if (summary) lines.push(...clip(summary, 4, ctx.width - 4, ctx).map((l) => `    ${l}`));
  return lines;
}

function renderMessage(message: MessageView, ctx: RenderContext): string[] {
  if (message.role === 'compaction') return renderCompaction(message, ctx);
  const header = `#${message.ordinal} ${message.role}  ${message.created_at?.replace('T', ' ').slice(0, 19) ?? ''}${message.model ? `  ${message.model}` : ''}`;
  const lines = [header];
  if (message.reasoning) lines.push(...clip(message.reasoning, 4, ctx.width - 7, ctx).map((l) => `    💭 ${l}`));
  if (message.text) lines.push(...clip(message.text, 8, ctx.width - 4, ctx).map((l) => `    ${l}`));
  if (message.error) lines.push(`    ✖ ${message.error}`);
  for (const call of message.tool_calls) {
    lines.push(callLine(call, ctx));
    if (call.output) lines.push(...clip(call.output.trimEnd(), 3, ctx.width - 8, ctx, ctx.deciding.get(call.call_id)).map((l) => `        ${l}`));
  }
  return lines;
}

export async function showCommand(reference: string, options: ShowOptions, output: Output): Promise<number> {
  if (options.from !== undefined && options.to !== undefined && options.from > options.to) {
    throw new UsageError(`--from ${options.from} is after --to ${options.to}`);
  }
  return withReader(options.db, async (db) => {
    const session = await resolveSession(db, reference);
    const last = await lastOrdinal(db, session.id);
    if (options.from !== undefined && options.from > last) {
      throw new UsageError(`--from ${options.from} is past the end of ${session.id}: its last message is #${last}`);
    }
    const range = { from: options.from, to: options.to };
    const messages = await sessionMessages(db, session.id, range);
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
    const ctx: RenderContext = { width: Math.max(60, output.columns), full: Boolean(options.full), deciding: await decidingLines(db, session.id, range) };
    for (const message of messages) {
      for (const line of renderMessage(message, ctx)) output.line(line);
    }
    if (options.to !== undefined && options.to < last) output.line(`(messages #${options.to + 1}–#${last} follow: --from ${options.to + 1})`);
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
    .option('--full', 'print every text and output whole (by default long ones are cut, saying how much; the lines that decided a call are always kept)')
    .option('--json', 'print {session, messages:[{…, tool_calls:[…]}]} (always whole)')
    .addHelpText('after', examples(['retrace show qwen --from 13 --to 14', 'retrace show qwen --from 13 --to 13 --full', 'retrace show ses_3a1f --json']))
    .action(async (session: string, opts: { db?: string; lake?: string; from?: number; to?: number; full?: boolean; json?: boolean }) => {
      ctx.setExitCode(await showCommand(session, { db: resolveStoreLocation(opts), from: opts.from, to: opts.to, full: Boolean(opts.full), json: Boolean(opts.json) }, ctx.output));
    });
}

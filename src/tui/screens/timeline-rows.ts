import { cleanLine, clock, duration, fit, fitRight, oneLine, plural, wrap } from '../format.js';
import { seg, type Segment } from '../segments.js';
import type { OutputPage, TimelineRow } from '../services.js';
import { MARK } from '../theme.js';

type CallRow = Extract<TimelineRow, { kind: 'call' }>;

const GROUP_GLYPH = { first: '┌', middle: '├', last: '└' } as const;

/** Timeouts and failures as words beside a mark, so they read without colour. */
export function callMarks(call: CallRow): Segment[] {
  const marks: Segment[] = [];
  if (call.timed_out) marks.push(seg(`${MARK.timeout} TIMEOUT `, 'warn'));
  else if (call.failed) marks.push(seg(`${MARK.failed} ${call.exit_code !== null && call.exit_code !== 0 ? `exit ${call.exit_code}` : 'error'} `, 'danger'));
  if (call.truncated) marks.push(seg('… cut ', 'dim'));
  return marks;
}

export function timelineRowSegments(row: TimelineRow | undefined): Segment[] {
  if (!row) return [seg('…', 'dim')];
  if (row.kind === 'message') {
    const compaction = row.role === 'compaction';
    const head = [seg(`${`#${row.ordinal}`.padEnd(6)} `, 'accent'), seg(fit(row.role, 10), row.role === 'user' ? 'warn' : 'dim'), seg(`${clock(row.created_at)} `, 'dim')];
    // The agent's context restarts from a summary here: a rule across the timeline.
    if (compaction) return [head[0] as Segment, seg(fit('compacted', 10), 'accent'), head[2] as Segment, seg(`── ${oneLine(row.preview) || 'Context compacted'} ──`, 'accent')];
    if (row.error) return [...head, seg(`${MARK.failed} error: ${oneLine(row.error)}`, 'danger')];
    if (row.preview) return [...head, seg(oneLine(row.preview))];
    if (row.reasoning_preview) return [...head, seg(`thinking: ${oneLine(row.reasoning_preview)}`, 'dim')];
    return [...head, seg(row.calls > 0 ? `(${plural(row.calls, 'tool call')})` : '(empty)', 'dim')];
  }
  const glyph = row.parallel_position ? GROUP_GLYPH[row.parallel_position] : '·';
  const summary = oneLine(row.summary);
  return [
    seg(`  ${glyph} `, row.parallel_position ? 'accent' : 'dim'),
    seg(fit(row.tool, 10)),
    seg(`${fitRight(duration(row.duration_ms), 6)} `, 'dim'),
    ...callMarks(row),
    seg(summary === '' ? '(no input)' : summary),
  ];
}

/** The selected row in more words: for a call, its command and the head of its output. */
export function timelineDetailLines(row: TimelineRow | undefined, head: OutputPage | null, width: number, height: number): Segment[][] {
  if (!row || height <= 0) return [];
  const lines: Segment[][] = [[seg('─'.repeat(width), 'dim')]];
  if (row.kind === 'message') {
    lines.push([seg(`#${row.ordinal} ${row.role} · ${clock(row.created_at)} UTC · ${plural(row.calls, 'tool call')}`, 'title')]);
    if (row.reasoning_preview) for (const line of wrap(`thinking: ${row.reasoning_preview}`, width)) lines.push([seg(line, 'dim')]);
    for (const line of wrap(row.preview, width)) lines.push([seg(line)]);
    return [...lines.slice(0, height - 1), [seg('Enter: the whole message', 'dim')]].slice(0, height);
  }
  const state = row.timed_out ? `${MARK.timeout} TIMEOUT` : row.failed ? `${MARK.failed} FAILED` : `${MARK.ok} ok`;
  const exit = row.exit_code === null ? 'no exit code' : `exit ${row.exit_code}`;
  const group = row.parallel_group ? ' · parallel' : '';
  lines.push([seg(`${row.tool} · ${state} · ${exit} · ${duration(row.duration_ms)} · ${clock(row.started_at)} UTC${group}`, row.timed_out ? 'warn' : row.failed ? 'danger' : 'title')]);
  for (const line of wrap(`$ ${oneLine(row.summary)}`, width).slice(0, 2)) lines.push([seg(line, 'accent')]);
  const room = height - lines.length - 1;
  const firstText = (head?.lines ?? []).findIndex((line) => line.trim() !== '');
  const output = (firstText < 0 ? [] : (head?.lines ?? []).slice(firstText)).slice(0, Math.max(0, room));
  for (const line of output) lines.push([seg(cleanLine(line))]);
  const rest = row.output_lines - output.length - Math.max(0, firstText);
  lines.push([seg(row.output_lines === 0 ? '(no output)' : rest > 0 ? `… ${plural(rest, 'more line')}: Enter opens the output` : 'Enter opens the output', 'dim')]);
  return lines.slice(0, height);
}

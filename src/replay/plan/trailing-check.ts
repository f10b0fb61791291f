import { parseCommandLine } from '../../query/shell/index.js';
import { identitiesOf, startsSomething } from './identities.js';
import { leavesOf } from './leaves.js';
import { leafEffect } from './lookups.js';
import type { Segment } from './segments.js';
import { unitOf } from './units.js';

/**
 * A line that starts a service and then checks it (`launchctl bootstrap … && sleep 35 && curl
 * …/health`) is two steps: the start, and the check that proves it up, which a replay polls while
 * the service loads and which the plan's check rules judge like any other. Split at the last
 * top-level `&&` or `;` after which the line only looks and makes a health request; everything
 * else stays one segment. Pure.
 */

/** Positions of the top-level `&&` and `;` of a one-line command (outside quotes, `$( )`, `( )`, `{ }`). */
function topLevelBreaks(text: string): { at: number; length: number }[] {
  const breaks: { at: number; length: number }[] = [];
  let quote: string | null = null;
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i] as string;
    if (quote) {
      if (ch === '\\' && quote !== "'") i += 1;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '\\') i += 1;
    else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '(' || ch === '{') depth += 1;
    else if (ch === ')' || ch === '}') depth -= 1;
    else if (depth === 0 && ch === '&' && text[i + 1] === '&') {
      breaks.push({ at: i, length: 2 });
      i += 1;
    } else if (depth === 0 && ch === ';' && text[i + 1] !== ';') breaks.push({ at: i, length: 1 });
  }
  return quote === null && depth === 0 ? breaks : [];
}

/** The parts of a line between its top-level breaks, where each starts and ends in the line. */
export function parts(text: string): { text: string; start: number; end: number }[] | null {
  const breaks = topLevelBreaks(text);
  if (breaks.length === 0) return null;
  const pieces: { text: string; start: number; end: number }[] = [];
  let start = 0;
  for (const { at, length } of [...breaks, { at: text.length, length: 0 }]) {
    pieces.push({ text: text.slice(start, at).trim(), start, end: at });
    start = at + length;
  }
  // The parser's own view of the same line: a new part where a pipeline follows `&&` or `;`.
  const firsts = parseCommandLine(text).filter((command, index) => index === 0 || command.connector === '&&' || command.connector === ';');
  return firsts.length === pieces.length && pieces.every((piece) => piece.text !== '') ? pieces : null;
}

/** Words without their quoting: the classifier writes a command back quoted its own way. */
export const squeeze = (text: string): string => text.replace(/['"]/g, '').replace(/\s+/g, ' ').trim();

export function splitTrailingCheck(segment: Segment, cwd: string | null): Segment[] {
  if (segment.command.includes('\n')) return [segment];
  const pieces = parts(segment.command);
  if (!pieces) return [segment];
  const changes = pieces.map((piece) => leavesOf(piece.text, cwd).some((leaf) => leafEffect(leaf) === 'change'));
  const last = changes.lastIndexOf(true);
  if (last < 0 || last === pieces.length - 1) return [segment];
  // A directory change in the head would move the check: keep such lines whole.
  if (pieces.slice(0, last + 1).some((piece) => /^(?:cd|pushd)\s/.test(piece.text))) return [segment];
  // Each action goes with the part whose text holds its command (the first part when none does).
  const partOf = (command: string): number => Math.max(0, pieces.findIndex((piece) => squeeze(piece.text).includes(squeeze(command))));
  const headActions = segment.actions.filter((a) => partOf(a.command) <= last);
  const tailActions = segment.actions.filter((a) => partOf(a.command) > last);
  if (!tailActions.some((a) => a.kind === 'health')) return [segment];
  const cut = pieces[last]!.end;
  const headSegment: Segment = { ...segment, command: segment.command.slice(0, cut).trim(), actions: headActions, ownsExit: false };
  if (!startsSomething(identitiesOf(unitOf(headSegment, cwd, 0))) && !headActions.some((a) => a.kind === 'serve' || a.kind === 'start')) return [segment];
  const tailSegment: Segment = { ...segment, command: segment.command.slice(pieces[last + 1]!.start).trim(), actions: tailActions };
  return [headSegment, tailSegment];
}

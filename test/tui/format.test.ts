import { describe, expect, it } from 'vitest';
import { summariseCommand } from '../../src/query/timeline.js';
import { bar, cleanLine, dateRange, duration, fit, fitRight, oneLine, sliceColumns, wrap } from '../../src/tui/format.js';
import { fitSegments, sameSegments, segmentsText, withoutTrailingBlanks } from '../../src/tui/segments.js';
import { callMarks, timelineDetailLines, timelineRowSegments } from '../../src/tui/screens/timeline-rows.js';
import { themeFromEnv, toneProps } from '../../src/tui/theme.js';
import { stepStatusMark, verdictMark } from '../../src/tui/verdicts.js';
import { TIMELINE } from './fake-session.js';

describe('text helpers', () => {
  it('shows a recorded line as a terminal would, without its escapes', () => {
    expect(cleanLine('\x1b[32mok\x1b[0m\tdone')).toBe('ok      done');
    expect(cleanLine('10%\r50%\r100% done')).toBe('100% done');
    expect(cleanLine('title\x1b]0;x\x07 bell\x07')).toBe('title bell');
    expect(oneLine('  a\n\n b\t c ')).toBe('a b c');
  });

  it('cuts and pads to a width', () => {
    expect(fit('abcdef', 4)).toBe('abc…');
    expect(fit('ab', 4)).toBe('ab  ');
    expect(fitRight('42', 5)).toBe('   42');
    expect(sliceColumns('abcdef', 2, 3)).toBe('cde');
  });

  it('word-wraps, breaking words longer than a line', () => {
    expect(wrap('the quick brown fox', 9)).toEqual(['the quick', 'brown fox']);
    expect(wrap('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrap('a\n\nb', 5)).toEqual(['a', '', 'b']);
  });

  it('writes durations and dates compactly (UTC)', () => {
    expect([450, 3_100, 42_000, 120_314, 3_900_000, null].map(duration)).toEqual(['450ms', '3.1s', '42s', '2m00s', '1h05m', '—']);
    expect(dateRange('2026-02-26T13:41:07.000Z', '2026-02-26T14:52:48.052Z')).toBe('2026-02-26 13:41–14:52');
    expect(dateRange('2026-02-26T23:41:07.000Z', '2026-02-27T00:52:48.052Z')).toBe('2026-02-26 23:41–2026-02-27 00:52');
  });

  it('draws bars in eighths of a cell on a shared scale', () => {
    expect(bar(50, 100, 4)).toBe('██  ');
    expect(bar(100, 100, 4)).toBe('████');
    expect(bar(1, 1_000, 4)).toBe('▏   ');
    expect(bar(0, 100, 3)).toBe('   ');
    expect(bar(5, 8, 1)).toBe('▋');
  });

  it('fits a row of segments to a width, marking the cut', () => {
    expect(segmentsText(fitSegments([{ text: 'hello ' }, { text: 'world', tone: 'dim' }], 9))).toBe('hello wo…');
    expect(segmentsText(fitSegments([{ text: 'hi' }], 4))).toBe('hi  ');
  });

  it('writes no unstyled blanks at the end of a row, but keeps styled ones and one blank of an empty row', () => {
    expect(withoutTrailingBlanks([{ text: '› ', tone: 'accent' }, { text: 'row  ' }, { text: '    ' }])).toEqual([{ text: '› ', tone: 'accent' }, { text: 'row' }]);
    expect(withoutTrailingBlanks([{ text: 'a  ', tone: 'plain' }])).toEqual([{ text: 'a', tone: 'plain' }]);
    expect(withoutTrailingBlanks([{ text: 'hint  ', tone: 'dim' }, { text: '  ' }])).toEqual([{ text: 'hint  ', tone: 'dim' }]);
    expect(withoutTrailingBlanks([{ text: '' }, { text: '    ' }])).toEqual([{ text: ' ' }]);
  });

  it('knows a row rebuilt with the same text and tones (it is not drawn again)', () => {
    expect(sameSegments([{ text: 'a', tone: 'dim' }, { text: 'b' }], [{ text: 'a', tone: 'dim' }, { text: 'b' }])).toBe(true);
    expect(sameSegments([{ text: 'a', tone: 'dim' }], [{ text: 'a' }])).toBe(false);
    expect(sameSegments([{ text: 'a' }], [{ text: 'a' }, { text: '' }])).toBe(false);
  });

  it('reads ssh-wrapped commands as host: command, even cut short', () => {
    expect(summariseCommand(`ssh aurora@10.1.230.180 'docker pull lmsysorg/sglang:spark 2>&1 | tail -3' 2>&1`)).toBe('10.1.230.180: docker pull lmsysorg/sglang:spark 2>&1 | tail -3');
    expect(summariseCommand(`ssh -o BatchMode=yes spark-head 'nvidia-smi`)).toBe('spark-head: nvidia-smi');
    expect(summariseCommand('docker ps')).toBe('docker ps');
  });
});

describe('colour and marks', () => {
  it('honours NO_COLOR (set and not empty)', () => {
    expect(themeFromEnv({ NO_COLOR: '1' })).toEqual({ colour: false });
    expect(themeFromEnv({ NO_COLOR: '' })).toEqual({ colour: true });
    expect(themeFromEnv({})).toEqual({ colour: true });
    expect(toneProps({ colour: false }, 'danger')).toEqual({});
    expect(toneProps({ colour: true }, 'danger')).toEqual({ color: 'red' });
    expect(toneProps({ colour: false }, 'title')).toEqual({ bold: true });
  });

  it('gives every verdict and status a mark as well as its word', () => {
    expect(['rejected', 'accepted', 'untested', 'abandoned', 'unknown', 'timeout'].map((v) => verdictMark(v).mark)).toEqual(['✗', '✓', '»', '»', '?', '!']);
    expect(['ok', 'failed', 'timeout', 'running', 'skipped', 'pending', 'planned'].map((s) => stepStatusMark(s).mark)).toEqual(['✓', '✗', '!', '▶', '»', '·', '»']);
  });
});

describe('timeline rows', () => {
  const pull = TIMELINE[4];

  it('marks timeouts and failures in words', () => {
    if (pull?.kind !== 'call') throw new Error('fixture: row 4 is the timed-out pull');
    expect(segmentsText(callMarks(pull))).toBe('! TIMEOUT ');
    expect(segmentsText(callMarks({ ...pull, timed_out: false, failed: true, exit_code: 7 }))).toBe('✗ exit 7 ');
    expect(segmentsText(callMarks({ ...pull, timed_out: false, failed: true, exit_code: null, truncated: true }))).toBe('✗ error … cut ');
    expect(segmentsText(timelineRowSegments(pull))).toBe('  ├ bash       2m00s ! TIMEOUT 10.1.230.180: docker pull lmsysorg/sglang:spark 2>&1 | tail -3');
  });

  it('draws a compaction boundary as a rule', () => {
    const boundary = { kind: 'message' as const, index: 9, ordinal: 9, role: 'compaction', created_at: '2026-02-26T14:00:00.000Z', preview: 'Context compacted (auto, 155,432 tokens before)', reasoning_preview: '', calls: 0, error: null };
    expect(segmentsText(timelineRowSegments(boundary))).toBe('#9     compacted 14:00:00 ── Context compacted (auto, 155,432 tokens before) ──');
  });

  it('describes the selected call with its output head, skipping blank lines', () => {
    const head = { call_id: 'call-pull-1', title: '', lines: ['', '', '<bash_metadata>', 'bash tool terminated command after exceeding timeout 120000 ms'], total_lines: 5, offset: 0 };
    const lines = timelineDetailLines(pull, head, 78, 7).map(segmentsText);
    expect(lines.slice(1)).toEqual([
      'bash · ! TIMEOUT · no exit code · 2m00s · 13:43:30 UTC · parallel',
      '$ 10.1.230.180: docker pull lmsysorg/sglang:spark 2>&1 | tail -3',
      '<bash_metadata>',
      'bash tool terminated command after exceeding timeout 120000 ms',
      '… 1 more line: Enter opens the output',
    ]);
  });
});

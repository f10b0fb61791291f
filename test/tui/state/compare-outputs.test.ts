import { describe, expect, it } from 'vitest';
import { compareReducer, initialCompare } from '../../../src/tui/state/compare-reducer.js';
import { nextDifference, outputsLayout, SIDE_BY_SIDE_MIN } from '../../../src/tui/screens/compare-outputs.js';
import { segmentsText } from '../../../src/tui/segments.js';
import type { RunStepRow } from '../../../src/tui/services.js';
import { RUN_STEPS } from '../fake-session.js';

/** Run vs record's outputs (17.6), without Ink: the layout, wide and narrow, and the outputs view's scrolling. */
const step = (output: string | null, recorded: string | null): RunStepRow => ({
  ...RUN_STEPS[0]!,
  output,
  recorded: { call_id: 'call_1', exit_code: 0, duration_ms: 1000, output_excerpt: recorded?.slice(0, 10) ?? null, output: recorded },
});

const text = (lines: ReturnType<typeof outputsLayout>['lines']) => lines.map((line) => segmentsText(line).trimEnd());

describe('run vs record outputs', () => {
  it('one above the other when narrow: each side whole, its differing lines marked, where each difference starts', () => {
    const layout = outputsLayout(step('a\nB\nc\nd\nE\n', 'a\nb\nc\nd\n'), 60);
    expect(layout.sideBySide).toBe(false);
    expect(text(layout.lines)).toEqual([
      'Recorded call_1: exit 0 1.0s', '  a', '≠ b', '  c', '  d',
      'This run on aurora@127.0.0.2:2222: ok exit 0 1.0s', '  a', '≠ B', '  c', '  d', '> E',
    ]);
    expect(layout.differences).toEqual([2, 7, 10]);
    expect(layout.differing).toBe(2);
  });

  it('side by side when wide, long lines wrapped in their column rather than cut', () => {
    const long = `x${'y'.repeat(70)}z`;
    const layout = outputsLayout(step(`same\n${long}\n`, 'same\nold\n'), SIDE_BY_SIDE_MIN);
    expect(layout.sideBySide).toBe(true);
    expect(text(layout.header)[0]).toMatch(/^Recorded call_1: exit 0 1\.0s +│ This run on aurora@127\.0\.0\.2:2222/);
    const lines = text(layout.lines);
    expect(lines[0]).toMatch(/^same +│ same$/);
    expect(lines[1]).toMatch(/^old +≠ xy+$/);
    expect(lines[2]).toMatch(/^ {40,}y+z$/);
    expect(layout.differences).toEqual([1]);
  });

  it('says when neither side has output, and names a step with no recorded call', () => {
    expect(text(outputsLayout(step(null, null), 60).lines)).toContain('  (no output)');
    const unrecorded = { ...step('hello\n', null), recorded: null };
    expect(text(outputsLayout(unrecorded, 60).lines)[0]).toBe('Recorded: nothing (no recorded call for this step)');
  });

  it('jumps between differences and keeps the outputs view within its lines', () => {
    expect(nextDifference([2, 7, 10], 0, 1)).toBe(2);
    expect(nextDifference([2, 7, 10], 7, 1)).toBe(10);
    expect(nextDifference([2, 7, 10], 10, 1)).toBeNull();
    expect(nextDifference([2, 7, 10], 7, -1)).toBe(2);
    let state = compareReducer(initialCompare(5), { type: 'loaded', steps: RUN_STEPS });
    state = compareReducer(state, { type: 'outputs-open', at: 3 });
    expect(state.outputsScroll).toBe(3);
    state = compareReducer(state, { type: 'outputs-scroll', to: 100, lines: 20, page: 8 });
    expect(state.outputsScroll).toBe(12);
    state = compareReducer(state, { type: 'outputs-scroll', to: -4, lines: 20, page: 8 });
    expect(state.outputsScroll).toBe(0);
    expect(compareReducer(state, { type: 'outputs-close' }).outputsScroll).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { initialNavigation, navigationReducer, currentRoute } from '../../../src/tui/state/navigation.js';
import { initialPager, pagerActionOfKey, pagerPromptAction, pagerReducer } from '../../../src/tui/state/pager-reducer.js';
import { initialSessions, selectedSession, sessionsReducer } from '../../../src/tui/state/sessions-reducer.js';
import { initialTimeline, timelineLayout, timelineReducer } from '../../../src/tui/state/timeline-reducer.js';
import { initialTree, selectedTreeRow, treeReducer, treeRows } from '../../../src/tui/state/tree-reducer.js';
import { initialWhy, selectedWhyLine, whyLines, whyReducer } from '../../../src/tui/state/why-reducer.js';
import { segmentsText } from '../../../src/tui/segments.js';
import { PLAN, SESSIONS, TREE, WHY_SCITRERA } from '../fake-session.js';

describe('navigation', () => {
  it('opens screens on a stack, goes back, never below the first', () => {
    let state = initialNavigation([]);
    expect(currentRoute(state)).toEqual({ screen: 'sessions' });
    state = navigationReducer(state, { type: 'open', route: { screen: 'runs' } });
    state = navigationReducer(state, { type: 'open', route: { screen: 'compare', runId: 'r1' } });
    expect(state.stack.map((entry) => entry.id)).toEqual([0, 1, 2]);
    state = navigationReducer(state, { type: 'back' });
    expect(currentRoute(state)).toEqual({ screen: 'runs' });
    state = navigationReducer(navigationReducer(state, { type: 'back' }), { type: 'back' });
    expect(state.stack).toHaveLength(1);
  });

  it('closes the keys overlay before going back, and drops the oldest screens of a deep stack', () => {
    let state = navigationReducer(initialNavigation([{ screen: 'sessions' }, { screen: 'runs' }]), { type: 'toggle-help' });
    state = navigationReducer(state, { type: 'back' });
    expect(state).toMatchObject({ helpOpen: false });
    expect(state.stack).toHaveLength(2);
    for (let i = 0; i < 40; i += 1) state = navigationReducer(state, { type: 'open', route: { screen: 'compare', runId: `r${i}` } });
    expect(state.stack).toHaveLength(24);
    expect(currentRoute(state)).toEqual({ screen: 'compare', runId: 'r39' });
  });
});

describe('sessions reducer', () => {
  it('counts the loaded sessions and finds them by title, id or agent', () => {
    let state = sessionsReducer(initialSessions(10), { type: 'loaded', sessions: SESSIONS });
    expect(state.list.total).toBe(2);
    state = sessionsReducer(sessionsReducer(state, { type: 'search-open' }), { type: 'search-type', text: 'claude' });
    state = sessionsReducer(state, { type: 'search-submit' });
    expect(selectedSession(state)?.agent).toBe('claude');
    expect(sessionsReducer(state, { type: 'failed', message: 'x' }).error).toBe('x');
  });
});

describe('timeline reducer', () => {
  it('waits for the row count before jumping to a message opened from elsewhere', () => {
    let state = timelineReducer(initialTimeline(14), { type: 'focus', index: 500 });
    expect(state).toMatchObject({ pendingFocus: 500, list: { cursor: 0 } });
    state = timelineReducer(state, { type: 'total', total: 10_000 });
    expect(state).toMatchObject({ pendingFocus: null, list: { cursor: 500 } });
    expect(timelineReducer(state, { type: 'focus', index: 20 }).list.cursor).toBe(20);
  });

  it('gives the list most of the body and the detail the rest, none on a small screen', () => {
    expect(timelineLayout(21)).toEqual({ listHeight: 14, detailHeight: 7 });
    expect(timelineLayout(10)).toEqual({ listHeight: 10, detailHeight: 0 });
  });
});

describe('pager reducer', () => {
  const loaded = pagerReducer(initialPager(20), { type: 'total', total: 100 });

  it('scrolls within the text and sideways', () => {
    expect(pagerReducer(loaded, { type: 'scroll', by: 5 }).top).toBe(5);
    expect(pagerReducer(loaded, { type: 'scroll', by: -5 }).top).toBe(0);
    expect(pagerReducer(loaded, { type: 'scroll-to', line: Number.MAX_SAFE_INTEGER }).top).toBe(80);
    expect(pagerReducer(pagerReducer(loaded, { type: 'pan', by: 20 }), { type: 'pan', by: -40 }).left).toBe(0);
    expect(pagerReducer(pagerReducer(loaded, { type: 'scroll-to', line: 80 }), { type: 'resize', height: 50 }).top).toBe(50);
  });

  it('shows a match a few lines below the top and steps between matches', () => {
    let state = pagerReducer(pagerReducer(loaded, { type: 'search-open' }), { type: 'search-type', text: 'x' });
    state = pagerReducer(state, { type: 'search-submit' });
    state = pagerReducer(state, { type: 'search-results', query: 'x', matches: [40, 90] });
    expect(state).toMatchObject({ current: 40, top: 37 });
    state = pagerReducer(state, { type: 'search-step', direction: 1 });
    expect(state).toMatchObject({ current: 90, top: 80 });
  });

  it('opens at the decisive line chosen (else the first), marking them all', () => {
    expect(pagerReducer(loaded, { type: 'decisive', lines: [60, 40, 40] })).toMatchObject({ decisive: [40, 60], current: 40, top: 37 });
    expect(pagerReducer(loaded, { type: 'decisive', lines: [40, 60], open: 60 })).toMatchObject({ current: 60, top: 57 });
  });

  it('pans to a match past the right edge of cut lines, and not when it is in view or lines wrap', () => {
    expect(pagerReducer(loaded, { type: 'reveal', column: 150, length: 5, width: 60 }).left).toBe(135);
    expect(pagerReducer(loaded, { type: 'reveal', column: 10, length: 5, width: 60 }).left).toBe(0);
    const panned = pagerReducer(loaded, { type: 'pan', by: 100 });
    expect(pagerReducer(panned, { type: 'reveal', column: 10, length: 5, width: 60 }).left).toBe(0);
    expect(pagerReducer(pagerReducer(loaded, { type: 'toggle-wrap' }), { type: 'reveal', column: 150, length: 5, width: 60 }).left).toBe(0);
  });

  it('reads less and vi keys', () => {
    expect(pagerActionOfKey(' ', {}, loaded)).toEqual({ type: 'scroll', by: 19 });
    expect(pagerActionOfKey('b', {}, loaded)).toEqual({ type: 'scroll', by: -19 });
    expect(pagerActionOfKey('l', {}, loaded)).toEqual({ type: 'pan', by: 20 });
    expect(pagerActionOfKey('x', {}, loaded)).toBeNull();
    expect(pagerPromptAction('a', {})).toEqual({ type: 'search-type', text: 'a' });
  });
});

describe('tree reducer', () => {
  it('places each pivot under the candidate it left', () => {
    const rows = treeRows(TREE);
    expect(rows.map((row) => (row.kind === 'candidate' ? `${row.step} ${row.candidate.name}` : `→ ${row.pivot.to}`))).toEqual([
      '1 vllm-spark:v0.14.0rc2.dev262', '→ lmsysorg/sglang:spark', '2 lmsysorg/sglang:spark', '→ scitrera/dgx-spark-sglang:0.5.10rc0',
      '3 scitrera/dgx-spark-sglang:0.5.10rc0', '→ hellohal2064/vllm-qwen3.5-gb10', '4 hellohal2064/vllm-qwen3.5-gb10', '5 lmsysorg/sglang:dev-cu13',
    ]);
  });

  it('finds a candidate with /', () => {
    let state = treeReducer(initialTree(10), { type: 'loaded', tree: TREE });
    state = treeReducer(treeReducer(treeReducer(state, { type: 'search-open' }), { type: 'search-type', text: 'dev-cu13' }), { type: 'search-submit' });
    expect(selectedTreeRow(state)).toMatchObject({ kind: 'candidate', step: 5 });
  });
});

describe('why reducer', () => {
  it('lays out the verdict, the evidence with its decisive lines, and the reasoning', () => {
    const lines = whyLines(WHY_SCITRERA, 60).map((line) => segmentsText(line.segments));
    expect(lines.slice(0, 5)).toEqual([
      '✗ rejected  scitrera/dgx-spark-sglang:0.5.10rc0',
      '  transformers 4.57.6 (Qwen3.5 needs ≥ 5.x); both',
      '  Qwen3.5 imports fail',
      '',
      'Evidence (1)',
    ]);
    expect(lines[5]).toBe('#17 probe → ✗ negative  ◆ decisive  on aurora@10.1.230.180  13s');
    expect(lines[6]).toMatch(/^ {4}\$ ssh aurora@10\.1\.230\.180 'docker run/);
    expect(lines).toContain('    │ Transformers: 4.57.6');
    expect(lines.find((line) => line.startsWith('#18'))).toMatch(/^#18 SGLang 0\.0\.0 means an editable install/);
    expect(lines.join('\n')).not.toContain('Winning path');
  });

  it('lists every step of the winning path under an accepted candidate, each leading to its call', () => {
    const accepted = { ...WHY_SCITRERA, candidate: 'hellohal2064/vllm-qwen3.5-gb10', verdict: 'accepted' };
    let state = whyReducer(initialWhy(10, 80), { type: 'loaded', why: accepted });
    expect(state.lines.map((line) => segmentsText(line.segments))).toContain('Winning path: loading…');
    state = whyReducer(state, { type: 'plan', plan: PLAN });
    const text = state.lines.map((line) => segmentsText(line.segments));
    expect(text).toContain('Winning path (2 steps; p on the tree shows the plan)');
    expect(text).toContain('  1. pull-image [head, worker]  #20  docker pull hellohal2064/vllm-qwen3.5-gb10');
    expect(state.lines.find((line) => segmentsText(line.segments).includes('2. health'))).toMatchObject({ ordinal: 34, callId: 'call-health' });
    const refused = whyReducer(state, { type: 'plan', plan: 'no plan: this session deploys nothing' });
    expect(refused.lines.map((line) => segmentsText(line.segments))).toContain('  no plan: this session deploys nothing');
  });

  it('knows the decisive line under the cursor, for o', () => {
    const state = whyReducer(initialWhy(10, 80), { type: 'loaded', why: WHY_SCITRERA });
    const line = state.lines.find((candidate) => segmentsText(candidate.segments).includes('NOT FOUND'));
    expect(line).toMatchObject({ evidence: 0, callId: 'call-probe-scitrera', decisiveLine: "Qwen3.5 MoE: NOT FOUND - No module named 'sglang.srt.models.qwen3_5_moe'" });
  });

  it('starts on the first evidence, and re-wraps on a resize', () => {
    let state = whyReducer(initialWhy(10, 60), { type: 'loaded', why: WHY_SCITRERA });
    expect(selectedWhyLine(state)).toMatchObject({ evidence: 0, ordinal: 17, callId: 'call-probe-scitrera' });
    const before = state.lines.length;
    state = whyReducer(state, { type: 'width', width: 30 });
    expect(state.lines.length).toBeGreaterThan(before);
    expect(state.list.total).toBe(state.lines.length);
  });
});

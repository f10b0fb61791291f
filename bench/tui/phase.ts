import { runChild } from '../lib/child.js';
import { benchScript } from '../lib/paths.js';
import { step } from '../lib/progress.js';
import { figure, type Figure } from '../lib/results.js';
import { round } from '../lib/stats.js';
import type { TuiChildResult } from './tui-child.js';

/**
 * The TUI on a 10,000-message session against the same on the bundled sample session: first
 * frame, first frame with rows, and scripted keys to the next frame (p50/p95).
 */
export interface TuiTarget {
  db: string;
  session: string;
  messages: number;
}

/** The baseline needs fewer keys for a stable p95: the script's cycle repeats every 42 keys. */
const SAMPLE_KEYS = 210;

export async function tuiPhase(big: TuiTarget, sample: TuiTarget, keys: number): Promise<Figure[]> {
  const run = (target: TuiTarget, count: number): Promise<TuiChildResult> =>
    runChild<TuiChildResult>(benchScript('tui/tui-child.js'), [target.db, target.session, String(count)], { timeoutMs: 10 * 60_000 }).then((r) => r.result);
  const small = await run(sample, Math.min(keys, SAMPLE_KEYS));
  const large = await run(big, keys);
  step(`first rows ${round(large.firstRowsMs, 0)} ms; key → frame p50 ${round(large.keyToFrame.p50Ms, 1)} ms, p95 ${round(large.keyToFrame.p95Ms, 1)} ms (sample: p95 ${round(small.keyToFrame.p95Ms, 1)} ms)`);
  const kinds = Object.entries(large.byKind).map(([kind, t]) => `${kind} ${round(t.p95Ms, 0)} ms (${t.count})`).join(', ');
  return [
    figure({
      id: 'tui.first-frame',
      group: 'tui',
      title: `TUI first frame with rows, ${big.messages}-message session`,
      measured: { label: 'retrace', value: round(large.firstRowsMs, 0), unit: 'ms' },
      baseline: { label: 'sample session', value: round(small.firstRowsMs, 0), unit: 'ms' },
      ratioMeaning: 'big session ms ÷ sample-session ms',
      ratio: round(large.firstRowsMs / small.firstRowsMs, 2),
      goal: null,
      notes: [`first frame of any kind after ${round(large.firstFrameMs, 0)} ms (sample ${round(small.firstFrameMs, 0)} ms); store open ${round(large.openMs, 0)} ms before that; ${large.timelineRows} timeline rows`],
    }),
    figure({
      id: 'tui.keys',
      group: 'tui',
      title: `TUI key → frame p95, ${large.keyToFrame.count} keys`,
      measured: { label: 'retrace', value: round(large.keyToFrame.p95Ms, 1), unit: 'ms', runs: [round(large.keyToFrame.p50Ms, 1), round(large.keyToFrame.p95Ms, 1)] },
      baseline: { label: 'sample session', value: round(small.keyToFrame.p95Ms, 1), unit: 'ms' },
      ratioMeaning: 'big session p95 ÷ sample-session p95',
      ratio: round(large.keyToFrame.p95Ms / small.keyToFrame.p95Ms, 2),
      goal: '< 30 ms',
      met: large.keyToFrame.p95Ms < 30,
      notes: [
        `p50 ${round(large.keyToFrame.p50Ms, 1)} ms, max ${round(large.keyToFrame.maxMs, 0)} ms; until the screen settles (data loaded): p50 ${round(large.keyToSettled.p50Ms, 1)} ms, p95 ${round(large.keyToSettled.p95Ms, 1)} ms, max ${round(large.keyToSettled.maxMs, 0)} ms`,
        `Ink's own render time per frame: p50 ${round(large.inkRender.p50Ms, 1)} ms, p95 ${round(large.inkRender.p95Ms, 1)} ms; keys without a new frame: ${large.noFrame}; p95 by kind: ${kinds}`,
        `CPU time from key to frame (steadier than wall time on a loaded machine): p50 ${round(large.keyToFrameCpu.p50Ms, 1)} ms, p95 ${round(large.keyToFrameCpu.p95Ms, 1)} ms (sample: p95 ${round(small.keyToFrameCpu.p95Ms, 1)} ms)`,
      ],
    }),
  ];
}

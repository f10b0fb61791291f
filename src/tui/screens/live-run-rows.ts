import { cleanLine, duration, fit, fitRight } from '../format.js';
import { seg, type Segment } from '../segments.js';
import type { LiveRunState, LiveStep } from '../state/live-run-reducer.js';
import { MARK } from '../theme.js';
import { stepStatusMark } from '../verdicts.js';

export function liveStepSegments(step: LiveStep | undefined, now: number): Segment[] {
  if (!step) return [seg('…', 'dim')];
  const { mark, tone } = stepStatusMark(step.status);
  const took = step.status === 'running' && step.startedAt !== null ? Math.max(0, now - step.startedAt) : step.durationMs;
  const verdict = step.verdict === 'diverged' ? seg(` ${MARK.diverged} diverged`, 'danger') : step.verdict === 'same' ? seg(` ${MARK.same} same`, 'ok') : seg('');
  return [
    seg(`${mark} ${fit(step.status, 10)} `, tone),
    seg(fit(step.stepId, 28), 'title'),
    // The user is the same on every row; the role and the address tell hosts apart.
    seg(` ${fit(`${step.role} ${step.host.replace(/^[^@]*@/, '')}`, 20)}`, 'dim'),
    seg(fitRight(took === null ? '' : duration(took), 7)),
    verdict,
    seg(step.exitCode !== null && step.exitCode !== 0 ? ` exit ${step.exitCode}` : ''),
  ];
}

export function liveHeadline(state: LiveRunState): Segment[] {
  const done = state.steps.filter((step) => step.status !== 'pending' && step.status !== 'running').length;
  const run = `${state.mode ?? '?'} run · ${done}/${state.steps.length} steps done`;
  if (state.finished) {
    const tone = state.finished.status === 'ok' ? 'ok' : 'danger';
    return [seg(` ${run} · `), seg(`finished: ${state.finished.status}`, tone), seg(`, ${state.finished.diverged} diverged · c: vs record`, 'dim')];
  }
  if (state.paused) return [seg(` ${run} · `), seg(`${MARK.paused} paused (p resumes)`, 'warn')];
  if (state.pauseRequested) return [seg(` ${run} · `), seg(`${MARK.paused} pausing after this step`, 'warn')];
  return [seg(` ${run}`)];
}

/** The selected step's last lines, as many as fit: the output is a tail, never the whole log. */
export function outputTail(step: LiveStep | undefined, height: number): Segment[][] {
  if (!step) return [];
  const title = [seg(` ${step.stepId}@${step.role}`, 'title'), seg(step.destructive ? ' (destructive)' : '', 'warn'), seg(step.command ? ` $ ${step.command}` : ' (not started)', 'accent')];
  const lines = step.partial ? [...step.output, step.partial] : step.output;
  const shown = lines.slice(-Math.max(0, height - 1));
  const detail = step.detail ? [[seg(` ${step.detail}`, step.verdict === 'diverged' ? 'danger' : 'dim')]] : [];
  const body = shown.map((line) => [seg(` ${cleanLine(line)}`)]);
  return [title, ...[...body, ...detail].slice(-Math.max(0, height - 1))];
}

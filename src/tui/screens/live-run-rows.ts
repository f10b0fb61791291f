import { cleanLine, duration, fit, fitRight, wrap } from '../format.js';
import { seg, type Segment } from '../segments.js';
import { heldStep, isHeld, type LiveRunState, type LiveStep } from '../state/live-run-reducer.js';
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

/** `steered`: set when this TUI only watches (the run is steered elsewhere, and this says where). */
export function liveHeadline(state: LiveRunState, steered: string | null = null): Segment[] {
  const done = state.steps.filter((step) => step.status !== 'pending' && step.status !== 'running').length;
  const run = `${state.mode ?? '?'} run · ${done}/${state.steps.length} steps done`;
  if (state.finished) {
    const tone = state.finished.status === 'ok' ? 'ok' : 'danger';
    return [seg(` ${run} · `), seg(`finished: ${state.finished.status}`, tone), seg(`, ${state.finished.diverged} diverged · c: vs record`, 'dim')];
  }
  if (state.held.length > 0) return [seg(` ${run} · `), seg(`${MARK.failed} held on a failure: ${steered ? 'waiting for a decision' : 'r retry · s skip · q abort'}`, 'danger')];
  if (state.paused) return [seg(` ${run} · `), seg(`${MARK.paused} paused${steered ? '' : ' (p resumes)'}`, 'warn')];
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

/**
 * What the run holds on: which step failed, on which host (whole: user@host:port), how, its last
 * output lines, and what the user may do. Other failed hosts are named so none goes unseen.
 */
export function failurePanel(state: LiveRunState, width: number, height: number, steered: string | null = null): Segment[][] {
  const step = heldStep(state);
  if (!step) return [];
  const how = step.exitCode !== null ? `exit ${step.exitCode}` : step.status;
  const head = wrap(`${MARK.failed} ${step.stepId} ${step.status} on ${step.role} ${step.host} (${how})`, width - 1).map((line) => [seg(` ${line}`, 'danger')]);
  const others = state.steps.filter((other) => other !== step && isHeld(state, other));
  const also = others.length > 0 ? wrap(`also failed: ${others.map((other) => `${other.stepId} on ${other.role} ${other.host}`).join(', ')} (j/k selects)`, width - 1).map((line) => [seg(` ${line}`, 'warn')]) : [];
  const detail = step.detail ? wrap(step.detail, width - 1).map((line) => [seg(` ${line}`, 'dim')]) : [];
  const keys = steered ? [seg(` r retry · s skip · q abort: ${steered}`, 'dim')] : [seg(' r retry · s skip this step and go on · q abort', 'accent'), seg(' (p does not go past a failure)', 'dim')];
  const fixed = head.length + also.length + detail.length + 2;
  const lines = step.output.length > 0 ? step.output : ['(no output)'];
  const room = Math.max(1, height - fixed);
  const tail = lines.slice(-room).map((line) => [seg(' │ ', 'dim'), seg(cleanLine(line))]);
  const body = [...head, ...also, ...detail, [seg(` last ${tail.length} of ${step.outputLines || lines.length} output lines:`, 'dim')], ...tail];
  // The keys stay on screen however small the pane is.
  return [...body.slice(0, Math.max(0, height - 1)), keys];
}

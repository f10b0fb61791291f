import { planSchema, type Plan } from '../../core/plan/schema.js';
import { runLogLine, type RunLogLine } from '../../core/run/runlog-format.js';
import { judge } from '../../core/run/verdict.js';
import { emptyMessage, type IngestItem, type Location, type RunStepRecord, type ToolCallRecord } from '../../core/model.js';

/**
 * A run log (written by the script `retrace export --to sh` makes) → the run as a session of agent
 * `retrace` (a message per step, a tool call per execution) plus its `runs`/`run_steps` rows,
 * judged against the plan the log carries exactly as a live replay judges its steps. Pure.
 */

export interface LogLine {
  value: unknown;
  line: number;
}

type StepStarted = Extract<RunLogLine, { type: 'step-started' }>;
type StepFinished = Extract<RunLogLine, { type: 'step-finished' }>;

function stepRecord(runId: string, role: string, host: string, plan: Plan | null, started: StepStarted, finished: StepFinished | undefined): RunStepRecord {
  const step = plan?.steps[started.step_index]?.id === started.step_id ? plan.steps[started.step_index] : plan?.steps.find((s) => s.id === started.step_id);
  let status: string;
  let verdict: string | null = null;
  let detail: string | null = finished?.detail ?? null;
  if (!finished) {
    status = 'interrupted';
    verdict = 'unknown';
    detail = 'the script stopped before this step finished';
  } else if (finished.status) {
    status = finished.status;
    if (status === 'guarded') detail = 'already done: the guard succeeded, so the step was skipped';
    if (status === 'interrupted') verdict = 'unknown';
  } else if (step) {
    const outcome = finished.timed_out
      ? { kind: 'timeout' as const, output: finished.output }
      : { kind: 'exited' as const, exitCode: finished.exit_code ?? -1, output: finished.output };
    ({ status, verdict, detail } = judge(step, outcome));
  } else {
    status = finished.exit_code === 0 ? 'ok' : 'failed';
    detail = 'not in the plan the log carries: no verdict';
  }
  return {
    stepId: started.step_id,
    stepIndex: started.step_index,
    role,
    host,
    attempt: 1,
    description: step?.description ?? '',
    command: started.command,
    guard: started.guard === '' ? null : started.guard,
    destructive: started.destructive,
    guardSatisfied: finished?.guard_satisfied ?? null,
    status,
    exitCode: finished && !finished.status ? (finished.exit_code ?? null) : null,
    timedOut: finished?.timed_out ?? false,
    startedAt: started.started_at,
    endedAt: finished?.ended_at ?? null,
    output: finished?.output ?? '',
    verdict,
    detail,
    callId: `${runId}/${started.step_id}/${role}/1`,
  };
}

export function convertRunLog(file: string, lines: readonly LogLine[]): IngestItem[] {
  const items: IngestItem[] = [];
  const parsed: { value: RunLogLine; line: number }[] = [];
  for (const { value, line } of lines) {
    const result = runLogLine.safeParse(value);
    if (result.success) parsed.push({ value: result.data, line });
    else items.push({ kind: 'problem', message: `not a run-log line: ${result.error.issues[0]?.message ?? 'invalid'}`, location: { file, line } });
  }
  const head = parsed.find((p) => p.value.type === 'run-started');
  if (!head || head.value.type !== 'run-started') {
    items.push({ kind: 'problem', message: 'no run-started line: not a complete run log', location: { file } });
    return items;
  }
  const start = head.value;
  const planResult = planSchema.safeParse(start.plan);
  const plan = planResult.success ? planResult.data : null;
  if (!plan) items.push({ kind: 'problem', message: 'the plan in the run-started line is not valid; steps are imported without verdicts', location: { file, line: head.line } });
  const host = `${start.user ? `${start.user}@` : ''}${start.host || 'unknown'} (exported script)`;
  const finishedAt = parsed.map((p) => p.value).find((v): v is Extract<RunLogLine, { type: 'run-finished' }> => v.type === 'run-finished');
  const location: Location = { file, line: head.line };

  const steps: RunStepRecord[] = [];
  for (const [index, entry] of parsed.entries()) {
    if (entry.value.type !== 'step-started') continue;
    const started = entry.value;
    const finished = parsed.slice(index + 1).map((p) => p.value).find((v): v is StepFinished => v.type === 'step-finished' && v.step_id === started.step_id);
    steps.push(stepRecord(start.run_id, start.role, host, plan, started, finished));
  }
  const endedAt = finishedAt?.ended_at ?? steps.reduce<number | null>((max, s) => Math.max(max ?? 0, s.endedAt ?? s.startedAt), null);
  const title = plan?.session.title ?? plan?.session.id ?? null;
  items.push({
    kind: 'session',
    session: {
      id: start.run_id,
      agent: 'retrace',
      parentId: null,
      title: `replay of ${title ?? 'a plan'} (exported script, ${start.role} on ${start.host || 'unknown'})`,
      directory: null,
      startedAt: start.started_at,
      endedAt,
      model: null,
      extra: JSON.stringify({ run_id: start.run_id, replay_of: plan?.session.id ?? null, mode: 'live', origin: 'runlog' }),
    },
    location,
  });
  for (const step of steps) {
    const message = emptyMessage(start.run_id, `${start.run_id}/${step.stepId}`, 'assistant');
    message.createdAt = step.startedAt;
    message.completedAt = step.endedAt;
    message.text = `${step.stepId}: ${step.description || step.command.split('\n')[0]}\n${step.role}: ${step.status}${step.verdict ? ` (${step.verdict}${step.detail ? `: ${step.detail}` : ''})` : ''}`;
    const call: ToolCallRecord = {
      sessionId: start.run_id,
      messageId: message.id,
      callId: step.callId,
      tool: 'sh',
      status: step.status === 'ok' || step.status === 'guarded' || step.status === 'skipped' ? 'completed' : 'error',
      input: JSON.stringify({ role: step.role, host, command: step.command, guard: step.guard, destructive: step.destructive, attempt: 1 }),
      command: step.command,
      output: step.output,
      title: `${step.stepId} on ${step.role} (${host})`,
      startedAt: step.startedAt,
      endedAt: step.endedAt,
      durationMs: step.endedAt === null ? null : step.endedAt - step.startedAt,
      exitCode: step.exitCode,
      timedOut: step.timedOut,
      truncated: false,
      parallelGroup: null,
      extra: JSON.stringify({ status: step.status, verdict: step.verdict, detail: step.detail, guard_satisfied: step.guardSatisfied }),
    };
    items.push({ kind: 'message', message, toolCalls: [call], location });
  }
  items.push({
    kind: 'run',
    run: {
      id: start.run_id,
      sessionId: plan?.session.id ?? null,
      sessionTitle: plan?.session.title ?? null,
      planLabel: `runlog:${file}`,
      planJson: JSON.stringify(plan ?? start.plan ?? null),
      mode: 'live',
      status: finishedAt?.status ?? 'interrupted',
      hosts: { [start.role]: [host] },
      startedAt: start.started_at,
      endedAt,
      origin: `runlog:${file}`,
    },
    steps,
    location,
  });
  return items;
}

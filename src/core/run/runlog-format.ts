import { z } from 'zod';

/**
 * The JSONL run log the exported shell script writes and `retrace ingest` reads back as a run.
 * One JSON object per line: `run-started` (first; carries the plan), then `step-started` /
 * `step-finished` per step, then `run-finished` (absent when the script was killed).
 */

export const RUNLOG_FORMAT = 'retrace-runlog';
export const RUNLOG_VERSION = 1;

export const runStartedLine = z.object({
  type: z.literal('run-started'),
  format: z.literal(RUNLOG_FORMAT),
  version: z.literal(RUNLOG_VERSION),
  run_id: z.string().min(1),
  role: z.string().min(1),
  host: z.string().default(''),
  user: z.string().default(''),
  started_at: z.number(),
  plan: z.unknown(),
});

export const stepStartedLine = z.object({
  type: z.literal('step-started'),
  step_id: z.string(),
  step_index: z.number().int(),
  command: z.string(),
  guard: z.string().default(''),
  destructive: z.boolean().default(false),
  started_at: z.number(),
});

export const stepFinishedLine = z.object({
  type: z.literal('step-finished'),
  step_id: z.string(),
  status: z.enum(['guarded', 'skipped', 'interrupted']).optional(),
  exit_code: z.number().int().nullable().optional(),
  timed_out: z.boolean().default(false),
  guard_satisfied: z.boolean().nullable().default(null),
  ended_at: z.number(),
  output: z.string().default(''),
  detail: z.string().optional(),
});

export const runFinishedLine = z.object({
  type: z.literal('run-finished'),
  status: z.enum(['ok', 'failed', 'aborted', 'interrupted']),
  ended_at: z.number(),
});

export const runLogLine = z.discriminatedUnion('type', [runStartedLine, stepStartedLine, stepFinishedLine, runFinishedLine]);
export type RunLogLine = z.infer<typeof runLogLine>;

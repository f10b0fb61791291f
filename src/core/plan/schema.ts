import { z } from 'zod';

/**
 * A replay plan: the winning path of a session as editable YAML. Validated with zod whenever it
 * is read back, so a hand-edited plan fails with the field at fault, never half-runs.
 */
export const PLAN_VERSION = 1;

const stepId = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'step ids are lower-case words joined by dashes');

export const roleSchema = z.object({
  /** The address the transcript recorded for this role: a comment for the reader, never a target. */
  recorded_address: z.string().nullable().default(null),
  recorded_hostname: z.string().nullable().default(null),
  recorded_user: z.string().nullable().default(null),
});

export const variableSchema = z.union([
  z.object({ value: z.string(), description: z.string().optional() }),
  /** A secret: its value is read from this environment variable at run time, never stored. */
  z.object({ env: z.string().regex(/^[A-Z_][A-Z0-9_]*$/), description: z.string().optional(), secret: z.literal(true).default(true) }),
]);

export const expectSchema = z.object({
  exit: z.number().int().nullable().default(0),
  /** A regular expression the recorded output matched; today's output is checked against it. */
  output: z.string().nullable().default(null),
});

export const stepSchema = z.object({
  id: stepId,
  description: z.string().default(''),
  roles: z.array(z.string().min(1)).min(1),
  /** The command as it runs on the host (already unwrapped from the recorded `ssh host '…'`). */
  command: z.string().min(1),
  timeout_s: z.number().positive().default(600),
  expect: expectSchema.default({ exit: 0, output: null }),
  /** A check run first: exit 0 means the work is already done and the step is skipped. */
  guard: z.string().nullable().default(null),
  destructive: z.boolean().default(false),
  /**
   * Run the command again every `interval_s` until it meets `expect`, for at most `max_s` (each
   * attempt still bounded by `timeout_s`): a health check that waits for a model to load.
   */
  poll: z.object({ interval_s: z.number().positive(), max_s: z.number().positive() }).nullable().default(null),
  /** Steps this one need not wait for: with them, it may run in parallel across hosts. */
  independent_of: z.array(stepId).default([]),
  source: z
    .object({
      message_ordinal: z.number().int().nullable(),
      call_id: z.string().nullable(),
      /**
       * For a step the record ran on several hosts: each role's own recorded call, so a run is
       * compared with what that host did (the worker's pull with the worker's). Added in plan
       * version 1 without a bump: older plans have only `call_id` (the first host's).
       */
      roles: z.record(z.string(), z.object({ message_ordinal: z.number().int().nullable(), call_id: z.string().nullable() })).optional(),
    })
    .default({ message_ordinal: null, call_id: null }),
  /**
   * The directory the step runs in (a template: `{{ head_workdir }}/docker`), where the record ran
   * it; `~` and `~/…` mean the login user's home. Null: wherever the login shell starts. Added in
   * plan schema 1 without a version bump: plans that lack it read as null.
   */
  workdir: z.string().min(1).nullable().default(null),
  /**
   * Set on a step that writes a file the agent wrote or edited (its command writes the content):
   * the path as the command writes it, and the sha256 of the content the record ended with (the
   * guard compares it), or null when only edits are known (the step applies them in place).
   */
  file: z.object({ path: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/).nullable() }).nullable().default(null),
});

export const planSchema = z.object({
  version: z.literal(PLAN_VERSION),
  session: z.object({ id: z.string(), title: z.string().nullable().default(null) }),
  goal: z.string().nullable().default(null),
  /** `deploy` replays what made a deployment; `cleanup` a session whose goal was to remove or stop things. */
  purpose: z.enum(['deploy', 'cleanup']).default('deploy'),
  candidate: z.string().nullable().default(null),
  roles: z.record(z.string().regex(/^[a-z][a-z0-9-]*$/), roleSchema),
  variables: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), variableSchema).default({}),
  steps: z.array(stepSchema).min(1),
});

export type Plan = z.infer<typeof planSchema>;
export type PlanStep = z.infer<typeof stepSchema>;
export type PlanRole = z.infer<typeof roleSchema>;

/** The recorded call a role's run of a step is compared with: its own, else the step's first. */
export function recordedCallOf(step: Pick<PlanStep, 'source'>, role: string): { message_ordinal: number | null; call_id: string | null } {
  return step.source.roles?.[role] ?? { message_ordinal: step.source.message_ordinal, call_id: step.source.call_id };
}

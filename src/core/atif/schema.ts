import { z } from 'zod';

/**
 * The Agent Trajectory Interchange Format (ATIF), v1.7: Harbor's RFC 0001 as the NeMo Agent
 * Toolkit's `nat.atif` models implement it. Written from the RFC and the models' field lists
 * and validators: objects accept no unknown keys (the models forbid extras; free-form data goes
 * in the `extra` objects), and the cross-field rules are checked as the validators do:
 * - step ids run 1, 2, 3 … in order;
 * - model_name, reasoning_effort, reasoning_content, tool_calls and metrics appear on agent steps only;
 * - every observation result's `source_call_id` names a tool call of the same step;
 * - an embedded subagent trajectory has a `trajectory_id`, unique among its siblings;
 * - a subagent reference sets `trajectory_id` or `trajectory_path` (session_id alone resolves nothing),
 *   and (retrace's stricter reading) an embedded one names a trajectory that is there.
 */

export const ATIF_VERSION = 'ATIF-v1.7';
export const ATIF_VERSIONS = ['ATIF-v1.0', 'ATIF-v1.1', 'ATIF-v1.2', 'ATIF-v1.3', 'ATIF-v1.4', 'ATIF-v1.5', 'ATIF-v1.6', 'ATIF-v1.7'] as const;

const extra = z.record(z.string(), z.unknown()).nullish();

/** ISO 8601 with a date and a time (`2026-02-26T13:41:07.000Z`, an offset, or none). */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;
const timestamp = z.string().refine((v) => ISO_TIMESTAMP.test(v) && !Number.isNaN(Date.parse(v)), 'not an ISO 8601 timestamp');

const imageSource = z.strictObject({
  media_type: z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp']),
  path: z.string(),
});

const contentPart = z
  .strictObject({ type: z.enum(['text', 'image']), text: z.string().nullish(), source: imageSource.nullish() })
  .refine((part) => (part.type === 'text' ? typeof part.text === 'string' : part.source != null), 'a text part needs text, an image part a source');

const content = z.union([z.string(), z.array(contentPart)]);

const subagentRef = z
  .strictObject({
    trajectory_id: z.string().nullish(),
    trajectory_path: z.string().nullish(),
    session_id: z.string().nullish(),
    extra,
  })
  .refine((ref) => ref.trajectory_id != null || ref.trajectory_path != null, 'a subagent reference sets trajectory_id or trajectory_path');

const observationResult = z.strictObject({
  source_call_id: z.string().nullish(),
  content: content.nullish(),
  subagent_trajectory_ref: z.array(subagentRef).nullish(),
  extra,
});

const toolCall = z.strictObject({
  tool_call_id: z.string(),
  function_name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  extra,
});

const count = z.number().int().nonnegative();

const metrics = z.strictObject({
  prompt_tokens: count.nullish(),
  completion_tokens: count.nullish(),
  cached_tokens: count.nullish(),
  cost_usd: z.number().nullish(),
  prompt_token_ids: z.array(z.number().int()).nullish(),
  completion_token_ids: z.array(z.number().int()).nullish(),
  logprobs: z.array(z.number()).nullish(),
  extra,
});

const AGENT_ONLY = ['model_name', 'reasoning_effort', 'reasoning_content', 'tool_calls', 'metrics'] as const;

export const atifStep = z
  .strictObject({
    step_id: z.number().int().min(1),
    timestamp: timestamp.nullish(),
    source: z.enum(['system', 'user', 'agent']),
    model_name: z.string().nullish(),
    reasoning_effort: z.union([z.string(), z.number()]).nullish(),
    message: content,
    reasoning_content: z.string().nullish(),
    tool_calls: z.array(toolCall).nullish(),
    observation: z.strictObject({ results: z.array(observationResult) }).nullish(),
    metrics: metrics.nullish(),
    is_copied_context: z.boolean().nullish(),
    llm_call_count: count.nullish(),
    extra,
  })
  .superRefine((value, ctx) => {
    if (value.source !== 'agent') {
      for (const field of AGENT_ONLY) {
        if (value[field] != null) ctx.addIssue({ code: 'custom', path: [field], message: `only an agent step may have ${field} (this step's source is ${value.source})` });
      }
    }
    const callIds = new Set((value.tool_calls ?? []).map((call) => call.tool_call_id));
    (value.observation?.results ?? []).forEach((result, index) => {
      if (result.source_call_id != null && !callIds.has(result.source_call_id)) {
        ctx.addIssue({ code: 'custom', path: ['observation', 'results', index, 'source_call_id'], message: `"${result.source_call_id}" is not a tool call of step ${value.step_id}` });
      }
    });
  });

const agent = z.strictObject({
  name: z.string(),
  version: z.string(),
  model_name: z.string().nullish(),
  tool_definitions: z.array(z.record(z.string(), z.unknown())).nullish(),
  extra,
});

const finalMetrics = z.strictObject({
  total_prompt_tokens: count.nullish(),
  total_completion_tokens: count.nullish(),
  total_cached_tokens: count.nullish(),
  total_cost_usd: z.number().nullish(),
  total_steps: count.nullish(),
  extra,
});

export interface AtifTrajectoryShape {
  schema_version: (typeof ATIF_VERSIONS)[number];
  session_id?: string | null | undefined;
  trajectory_id?: string | null | undefined;
  agent: z.infer<typeof agent>;
  steps: z.infer<typeof atifStep>[];
  notes?: string | null | undefined;
  final_metrics?: z.infer<typeof finalMetrics> | null | undefined;
  continued_trajectory_ref?: string | null | undefined;
  extra?: Record<string, unknown> | null | undefined;
  subagent_trajectories?: AtifTrajectoryShape[] | null | undefined;
}

export const atifTrajectory: z.ZodType<AtifTrajectoryShape> = z.lazy(() =>
  z
    .strictObject({
      schema_version: z.enum(ATIF_VERSIONS),
      session_id: z.string().nullish(),
      trajectory_id: z.string().nullish(),
      agent,
      steps: z.array(atifStep).min(1),
      notes: z.string().nullish(),
      final_metrics: finalMetrics.nullish(),
      continued_trajectory_ref: z.string().nullish(),
      extra,
      subagent_trajectories: z.array(atifTrajectory).nullish(),
    })
    .superRefine((value, ctx) => {
      value.steps.forEach((s, index) => {
        if (s.step_id !== index + 1) ctx.addIssue({ code: 'custom', path: ['steps', index, 'step_id'], message: `expected ${index + 1} (sequential from 1), got ${s.step_id}` });
      });
      const embedded = new Set<string>();
      (value.subagent_trajectories ?? []).forEach((sub, index) => {
        if (sub.trajectory_id == null) ctx.addIssue({ code: 'custom', path: ['subagent_trajectories', index, 'trajectory_id'], message: 'an embedded subagent trajectory needs a trajectory_id' });
        else if (embedded.has(sub.trajectory_id)) ctx.addIssue({ code: 'custom', path: ['subagent_trajectories', index, 'trajectory_id'], message: `duplicate trajectory_id "${sub.trajectory_id}"` });
        else embedded.add(sub.trajectory_id);
      });
      value.steps.forEach((s, index) => {
        (s.observation?.results ?? []).forEach((result, at) => {
          for (const ref of result.subagent_trajectory_ref ?? []) {
            if (ref.trajectory_id != null && ref.trajectory_path == null && !embedded.has(ref.trajectory_id)) {
              ctx.addIssue({ code: 'custom', path: ['steps', index, 'observation', 'results', at, 'subagent_trajectory_ref'], message: `no embedded subagent trajectory "${ref.trajectory_id}"` });
            }
          }
        });
      });
    }),
);

export type AtifTrajectory = AtifTrajectoryShape;
export type AtifStep = z.infer<typeof atifStep>;
export type AtifToolCall = z.infer<typeof toolCall>;
export type AtifObservationResult = z.infer<typeof observationResult>;
export type AtifMetrics = z.infer<typeof metrics>;

/** The problems of a document as `path: message` lines (empty when it is valid ATIF). */
export function atifProblems(document: unknown): string[] {
  const result = atifTrajectory.safeParse(document);
  if (result.success) return [];
  return result.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`);
}

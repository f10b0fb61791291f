import type { Plan, PlanStep } from '../../core/plan/schema.js';

/**
 * Where one role waits for another. The plan's order is the record's: the worker joined once the
 * head had started its cluster, the head checked the cluster once the workers had joined. A step
 * right after work of other roles alone "waits for" them. Two kinds of such steps can wait for
 * real rather than rely on timing:
 * - a check (it only reads: a status, a health endpoint) polls until its expected output appears,
 *   for a bounded time, unless the plan gives it a poll of its own: a cluster check waits for the
 *   N nodes it expects, not for the first one;
 * - a join of a cluster first polls, on its own host, until the cluster it joins answers
 *   (JOINS below: knowledge as data, one entry per framework).
 * The live runner, the sh export and the Ansible export all read these. Pure.
 */

/** How long a check that waits for other roles polls, when its plan says nothing. */
export const COORDINATION_POLL = { interval_s: 2, max_s: 300 } as const;

/** Checks by id: what extraction names read-only steps (`check-cluster`, `check-health`, …). */
const CHECK_ID = /^(?:check|health|verify|wait)(?:-|$)/;

export function isCheckStep(step: PlanStep): boolean {
  return CHECK_ID.test(step.id) && !step.destructive && step.guard === null;
}

/** The step of other roles right before `step` in the plan, for `role` (null: nothing to wait for). */
export function awaitedBy(plan: Plan, step: PlanStep, role: string): PlanStep | null {
  const index = plan.steps.indexOf(step);
  const before = index > 0 ? plan.steps[index - 1] : undefined;
  if (!before || before.roles.includes(role) || step.independent_of.includes(before.id)) return null;
  return before;
}

/** The poll a step runs with: its own, or the bounded wait of a check that waits for other roles. */
export function effectivePoll(plan: Plan, step: PlanStep): PlanStep['poll'] {
  if (step.poll) return step.poll;
  if (!isCheckStep(step) || step.expect.output === null) return null;
  return step.roles.some((role) => awaitedBy(plan, step, role) !== null) ? { ...COORDINATION_POLL } : null;
}

interface JoinRule {
  framework: string;
  /** Finds the address a command joins (group 1). */
  join: RegExp;
  /** A command, run on the joining host, that succeeds once that address answers; `{address}` is replaced. */
  ready: string;
}

/**
 * Cluster joins and how to tell, from the joining host, that the cluster answers. Inside a
 * container (`docker run … IMAGE ray start --address=…`) the check runs in the same image.
 */
export const JOINS: readonly JoinRule[] = [
  { framework: 'ray', join: /\bray start\b[^;&|]*?--address[= ]['"]?([^\s'"]+)/, ready: 'ray status --address={address}' },
];

/** The shell words of a `docker run` before its command: options, then the image. */
function dockerImageOf(command: string): string | null {
  const run = /\bdocker run\b(.*)$/s.exec(command);
  if (!run) return null;
  const words = (run[1] ?? '').trim().split(/\s+/);
  const withValue = new Set(['--name', '-v', '--volume', '-e', '--env', '-p', '--publish', '--gpus', '--shm-size', '--ipc', '--network', '--net', '--entrypoint', '-w', '--workdir', '-u', '--user', '--ulimit', '--device', '--runtime', '--label', '-l', '--env-file', '--mount', '--cpus', '--memory', '-m', '--restart', '--pid', '--hostname', '-h']);
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] ?? '';
    if (word.startsWith('-')) {
      if (!word.includes('=') && withValue.has(word)) i += 1;
      continue;
    }
    return word;
  }
  return null;
}

/** The readiness check a cluster join waits for (run on the joining host), or null. */
export function joinReadiness(command: string): { framework: string; address: string; check: string } | null {
  for (const rule of JOINS) {
    const match = rule.join.exec(command);
    if (!match?.[1]) continue;
    const inner = rule.ready.replace('{address}', match[1]);
    const image = dockerImageOf(command.slice(0, match.index));
    const check = image ? `docker run --rm --net=host ${image} ${inner}` : inner;
    return { framework: rule.framework, address: match[1], check };
  }
  return null;
}

import { COORDINATION_POLL } from '../plan/coordination.js';
import type { HostExecutor } from './host-executor.js';

/**
 * Before a host joins a cluster another role started: poll, on the joining host, until that
 * cluster answers (see plan/coordination.ts), at most COORDINATION_POLL.max_s. Returns null when
 * it answered, else why the join should not be attempted.
 */
export async function waitForCluster(executor: HostExecutor, check: string, address: string, signal: AbortSignal, now: () => number = Date.now): Promise<string | null> {
  const began = now();
  for (;;) {
    const outcome = await executor.run(check, { timeoutMs: 60_000, secrets: {}, signal });
    if (outcome.kind === 'exited' && outcome.exitCode === 0) return null;
    if (outcome.kind !== 'exited') return `the cluster at ${address} could not be checked (${outcome.kind})`;
    if (signal.aborted) return 'interrupted while waiting for the cluster';
    if (now() - began + COORDINATION_POLL.interval_s * 1000 > COORDINATION_POLL.max_s * 1000) {
      return `the cluster at ${address} did not answer within ${COORDINATION_POLL.max_s}s (${check})`;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, COORDINATION_POLL.interval_s * 1000);
      signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
    });
  }
}

import { benchScript } from '../lib/paths.js';
import { runChild } from '../lib/child.js';
import { step } from '../lib/progress.js';
import { figure, type Figure } from '../lib/results.js';
import { round } from '../lib/stats.js';
import { startLoopbackSshd } from './loopback-sshd.js';
import type { ReplayChildResult } from './replay-child.js';

/**
 * Replay overhead per step: retrace's runner executor over one persistent ssh2 connection,
 * against OpenSSH started per step and OpenSSH through a ControlMaster, all against a loopback
 * sshd the bench starts (and stops) itself.
 */
export async function replayPhase(steps: number): Promise<Figure[]> {
  const sshd = await startLoopbackSshd('127.0.0.2');
  let result: ReplayChildResult;
  try {
    const info = { address: sshd.address, port: sshd.port, user: sshd.user, clientKeyPath: sshd.clientKeyPath, knownHostsPath: sshd.knownHostsPath, dir: sshd.dir };
    result = (await runChild<ReplayChildResult>(benchScript('replay/replay-child.js'), [JSON.stringify(info), String(steps)], { timeoutMs: 10 * 60_000 })).result;
  } finally {
    await sshd.stop();
  }
  const ours = result.executor.medianMs;
  step(`per step: executor ${round(ours, 1)} ms, raw ssh2 ${round(result.rawSsh2.medianMs, 1)} ms (TCP_NODELAY ${round(result.rawSsh2NoDelay.medianMs, 1)} ms), ssh per step ${round(result.openssh.medianMs, 1)} ms, ControlMaster ${round(result.controlMaster.medianMs, 1)} ms`);
  const notes = [
    `median of ${result.executor.steps} steps each (\`true\` on ${sshd.address}); p95: executor ${round(result.executor.p95Ms, 1)} ms, ssh ${round(result.openssh.p95Ms, 1)} ms, ControlMaster ${round(result.controlMaster.p95Ms, 1)} ms`,
    `bare ssh2 exec on its own connection: ${round(result.rawSsh2.medianMs, 1)} ms per step; the same with TCP_NODELAY on: ${round(result.rawSsh2NoDelay.medianMs, 1)} ms (ssh2 leaves Nagle's algorithm on); connecting once: ssh2 ${round(result.connectMs.ssh2, 0)} ms, ControlMaster ${round(result.connectMs.controlMaster, 0)} ms`,
  ];
  const executorMeasure = { label: 'retrace', value: round(ours, 1), unit: 'ms/step' };
  return [
    figure({
      id: 'replay.vs-openssh',
      group: 'replay',
      title: 'replay step overhead vs ssh per step',
      measured: executorMeasure,
      baseline: { label: 'ssh … true', value: round(result.openssh.medianMs, 1), unit: 'ms/step' },
      ratioMeaning: 'ssh-per-step ms ÷ retrace ms (times less overhead; higher is better)',
      ratio: round(result.openssh.medianMs / ours, 2),
      goal: '≥ 10×',
      met: result.openssh.medianMs / ours >= 10,
      notes,
    }),
    figure({
      id: 'replay.vs-controlmaster',
      group: 'replay',
      title: 'replay step overhead vs ssh ControlMaster',
      measured: executorMeasure,
      baseline: { label: 'ssh ControlMaster', value: round(result.controlMaster.medianMs, 1), unit: 'ms/step' },
      ratioMeaning: 'retrace ms ÷ ControlMaster ms (lower is better)',
      ratio: round(ours / result.controlMaster.medianMs, 2),
      goal: '≤ 1.5×',
      met: ours / result.controlMaster.medianMs <= 1.5,
    }),
  ];
}

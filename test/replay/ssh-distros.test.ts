// Hosts as distributions ship them (OpenSSH 9's defaults, no ssh-rsa signatures): known only by
// an RSA host key, only by ECDSA, and one whose login shell is dash. Each connects, and a step
// that runs past its timeout has its whole remote process group killed.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SshHostExecutor } from '../../src/replay/run/host-executor.js';
import { connectOptionsFor, resolveHostSpec } from '../../src/replay/run/live-replay.js';
import { SshConnection } from '../../src/replay/ssh/connection.js';
import { replayCommand } from '../../src/cli/commands/replay.js';
import type { Output } from '../../src/cli/output.js';
import { loadRun, listRuns } from '../../src/store/run-queries.js';
import type { HostRole, TestHosts } from '../ssh/harness.js';
import { queryStore } from '../helpers/ingest.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { hostSpec, testSshSettings, useTestHosts } from './helpers/hosts.js';

let hosts: TestHosts;
const dir = tempDir('retrace-distros-');
const silent: Output = { line: () => undefined, data: () => undefined, json: () => undefined, warn: () => undefined, status: () => undefined, clearStatus: () => undefined, interactive: false, columns: 100 };

beforeAll(async () => {
  // The dash host also has no docker: the sample's `docker pull … | tail -3` meets a missing program.
  hosts = await useTestHosts({ roles: ['rsa', 'ecdsa', 'dash'], withoutTools: { dash: ['docker'] } });
});

async function executorFor(role: HostRole): Promise<SshHostExecutor> {
  const settings = testSshSettings(hosts);
  const target = resolveHostSpec(hostSpec(hosts, role), settings);
  return new SshHostExecutor(role, await SshConnection.open(target, connectOptionsFor(target, settings)));
}

describe('hosts known by RSA and ECDSA keys, and a dash login shell', () => {
  it.each([
    ['rsa', 'ssh-rsa', /bash/],
    ['ecdsa', 'ecdsa-sha2-nistp256', /bash/],
    ['dash', 'ssh-ed25519', /dash/],
  ] as const)('%s: connects (known_hosts holds %s) and runs with its login shell', async (role, keyType, shell) => {
    expect(readFileSync(hosts.knownHostsPath, 'utf8')).toContain(` ${keyType} `);
    const executor = await executorFor(role);
    try {
      const outcome = await executor.run('readlink /proc/$$/exe; echo "$SPARK_SIM_HOSTNAME"', { timeoutMs: 10_000, secrets: {} });
      expect(outcome.kind).toBe('exited');
      expect(outcome.output).toMatch(shell);
      expect(outcome.output).toContain(hosts.host(role).hostname);
    } finally {
      executor.close();
    }
  });

  it.each(['rsa', 'ecdsa', 'dash'] as const)('%s: a timeout kills the remote process group, children included', async (role) => {
    const executor = await executorFor(role);
    try {
      let pgid: number | null = null;
      const outcome = await executor.run('sleep 300 & sleep 301; wait', { timeoutMs: 1_500, secrets: {}, onProcessGroup: (id) => (pgid = id) });
      expect(outcome.kind).toBe('timeout');
      expect(pgid).not.toBeNull();
      // What is left of the group may be a zombie for a moment (not running): count the living.
      const living = `ps -eo pgid=,stat= | awk -v g=${pgid} '$1 == g && $2 !~ /^Z/' | wc -l`;
      let left = '';
      for (let i = 0; i < 20; i += 1) {
        left = (await executor.run(living, { timeoutMs: 10_000, secrets: {} })).output.trim();
        if (left === '0') break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(left).toBe('0');
    } finally {
      executor.close();
    }
  });
});

describe('a host without docker', () => {
  const dbPath = tempDbPath(dir);
  const planPath = join(dir, 'pull.yaml');
  const plan = {
    version: 1,
    session: { id: 'ses_pull', title: 'pull then use' },
    roles: { head: {} },
    variables: { image: { value: 'hellohal2064/vllm-qwen3.5-gb10' } },
    steps: [
      { id: 'pull-image', roles: ['head'], command: 'docker pull {{ image }} 2>&1 | tail -3', expect: { exit: 0, output: '^Digest: sha256:[0-9a-f]{64}$' } },
      { id: 'after-pull', roles: ['head'], command: 'touch ~/after-pull' },
    ],
  };

  const replay = (keepGoing: boolean) =>
    replayCommand(planPath, {
      db: dbPath,
      hosts: [`head=${hostSpec(hosts, 'dash')}`],
      vars: [],
      live: true,
      yes: true,
      keepGoing,
      knownHosts: hosts.knownHostsPath,
      identity: hosts.clientKeyPath,
      sshConfig: '/dev/null',
      acceptNew: false,
      json: false,
      env: { HOME: dir, SSH_AUTH_SOCK: '' },
    }, silent);

  it('fails the pull (pipefail, even on dash), names the cause, and stops the run; --keep-going goes on', async () => {
    writeFileSync(planPath, JSON.stringify(plan));
    const marker = join(hosts.host('dash').homeDir, 'after-pull');
    expect(await replay(false)).toBe(1);
    const [run] = await queryStore(dbPath, listRuns);
    const steps = (await queryStore(dbPath, (db) => loadRun(db, run?.id ?? ''))).step_rows;
    expect(steps.map((s) => `${s.step_id}:${s.status}`)).toEqual(['pull-image:failed']);
    expect(steps[0]?.output, steps[0]?.detail ?? '').toContain('docker: command not found');
    expect(steps[0]?.exit_code).toBe(127);
    expect(steps[0]?.detail).toBe('exit 127, recorded 0: docker: command not found');
    expect(existsSync(marker)).toBe(false);

    expect(await replay(true)).toBe(1);
    const last = (await queryStore(dbPath, listRuns)).at(-1);
    const again = (await queryStore(dbPath, (db) => loadRun(db, last?.id ?? ''))).step_rows;
    expect(again.map((s) => `${s.step_id}:${s.status}`)).toEqual(['pull-image:failed', 'after-pull:ok']);
    expect(existsSync(marker)).toBe(true);
  });
});

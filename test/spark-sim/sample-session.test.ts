// Every bash command of the bundled sample session, run through a real ssh login on the test
// hosts, must get the answer the transcript recorded (same exit code, same lines once clock
// times, ids and HOME are masked). This keeps the simulated toolset and the sample in step.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHosts, type TestHosts } from '../ssh/harness.js';
import { normalizeOutput, readRecordedCommands } from './recorded-commands.js';

const SESSIONS_DIR = fileURLToPath(new URL('../../sessions', import.meta.url));
const samplePath = readdirSync(SESSIONS_DIR)
  .filter((name) => name.startsWith('ses_') && name.endsWith('.json'))
  .map((name) => join(SESSIONS_DIR, name))[0];
if (!samplePath) throw new Error(`no sample session (ses_*.json) in ${SESSIONS_DIR}`);
const commands = await readRecordedCommands(samplePath);

// Where the simulation says less than the recording, on purpose. `command` guards against the
// sample changing under this list.
const KNOWN_DIFFERENCES: Record<number, { command: string; reason: string; expected: string[]; oneOf?: string[] }> = {
  35: {
    command: 'tail -n 6 /tmp/vllm-serve.log',
    reason: 'how far the load has got at that moment depends on timing (on a loaded machine it may be done)',
    expected: [],
    oneOf: ['Loading safetensors checkpoint shards:', 'Application startup complete.'],
  },
  38: {
    command: 'cat /tmp/vllm-serve.log',
    reason: 'the simulated serve log is a short version of the real 50 KB one',
    expected: [
      'vLLM API server version 0.17.0rc1.dev58+g9a3e6c1f2',
      'Resolved architecture: Qwen3_5MoeForConditionalGeneration',
      'Connected to Ray cluster. Nodes: 2, GPUs: 2.',
      '(APIServer pid=1187) INFO:     Application startup complete.',
    ],
  },
};

describe(`the sample session's commands on the simulated Sparks (${commands.length} commands)`, () => {
  let hosts: TestHosts;

  beforeAll(async () => {
    // The recorded `sleep 60` and `sleep 480` take 1.2 s and 9.6 s; the model loads in 5 s. The
    // model loads in real time, so these leave room on a loaded machine: #34 (the health check
    // right after `vllm serve`, recorded as refused) fails only if its ssh login takes over 5 s,
    // and #36 (after the `sleep 480`) finds the load done with 5 s to spare. A load of 1 s was
    // once already done by #34 in CI.
    hosts = await startTestHosts({ sessionEnv: { SPARK_SIM_SLEEP_SCALE: '0.02', SPARK_SIM_LOAD_SECONDS: '5' } });
  });

  afterAll(async () => {
    await hosts?.stop();
  });

  it('has the shape this test expects', () => {
    expect(commands.length).toBeGreaterThan(30);
    for (const [ordinal, difference] of Object.entries(KNOWN_DIFFERENCES)) {
      expect(commands[Number(ordinal) - 1]?.remote).toContain(difference.command);
    }
  });

  it.each(commands)('#$ordinal on the $role: $remote', ({ ordinal, role, remote, exit, output }) => {
    // A command the bash tool killed has no recorded outcome to compare with.
    if (exit === null) return;
    const result = spawnSync('ssh', ['-F', hosts.sshConfigPath, '-o', 'BatchMode=yes', `spark-${role}`, remote], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(exit);
    const ours = normalizeOutput(result.stdout + result.stderr, hosts.host(role).homeDir);
    const difference = KNOWN_DIFFERENCES[ordinal];
    if (difference) {
      for (const text of difference.expected) expect(ours.join('\n')).toContain(text);
      if (difference.oneOf) expect(difference.oneOf.some((text) => ours.join('\n').includes(text)), ours.join('\n')).toBe(true);
      return;
    }
    const missing = normalizeOutput(output, '/home/aurora').filter((line) => !ours.includes(line));
    expect(missing).toEqual([]);
  });
});

describe('a simulated container', () => {
  let hosts: TestHosts;

  beforeAll(async () => {
    // Under /tmp on purpose: the container's private /tmp must still show the simulation's folders.
    hosts = await startTestHosts({ baseDir: tmpdir() });
  });

  afterAll(async () => {
    await hosts?.stop();
  });

  const ssh = (remote: string) =>
    spawnSync('ssh', ['-F', hosts.sshConfigPath, '-o', 'BatchMode=yes', 'spark-head', remote], { encoding: 'utf8', timeout: 20_000 });

  it('keeps what it writes to /tmp to itself, while the simulation under /tmp stays visible to it', () => {
    // Where mount namespaces are allowed (they are here and in CI, as root); elsewhere the stub
    // falls back to the host's /tmp, and this test says so rather than pass quietly.
    expect(spawnSync('unshare', ['--mount', 'true']).status, 'unshare --mount must work for the private /tmp').toBe(0);
    const name = `/tmp/retrace-private-tmp-${process.pid}.log`;
    const started = ssh('docker run -d --name tmp-probe nginx:1.27-alpine sleep 3600');
    expect(started.status, started.stderr).toBe(0);
    const written = ssh(`docker exec tmp-probe sh -c 'echo inside > ${name}; cat ${name}' && ls "$HOME"`);
    expect(written.status, written.stderr).toBe(0);
    expect(written.stdout).toContain('inside');
    expect(existsSync(name)).toBe(false);
    expect(ssh(`docker exec tmp-probe cat ${name}`).stdout).toBe('inside\n');
    expect(hosts.rootDir.startsWith(`${tmpdir()}/`)).toBe(true);
  });
});

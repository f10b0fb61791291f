import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { pipefailNeed } from '../../src/replay/plan/pipefail.js';
import { wrapRemoteCommand } from '../../src/replay/run/remote-command.js';

/** Runs a wrapped step in a real shell (bash, or dash, which has no pipefail), PATH without docker. */
function run(shell: string, command: string): { code: number | null; stderr: string } {
  const result = spawnSync(shell, ['-c', wrapRemoteCommand(command, [], { pipefail: pipefailNeed(command).pipefail })], {
    env: { PATH: '/usr/bin:/bin' },
    encoding: 'utf8',
  });
  return { code: result.status, stderr: result.stderr };
}

describe('pipefail where a pipeline only trims output', () => {
  it('is needed for tail, head and display grep, not where the tail is a test', () => {
    expect(pipefailNeed('docker pull x 2>&1 | tail -3')).toEqual({ pipefail: true, sigpipeExpected: false });
    expect(pipefailNeed('HF_TOKEN=${HF_TOKEN} hf download m 2>&1 | tail -2 && du -sh ~/x')).toEqual({ pipefail: true, sigpipeExpected: false });
    expect(pipefailNeed('docker images | head -5')).toEqual({ pipefail: true, sigpipeExpected: true });
    expect(pipefailNeed('docker ps | grep vllm')).toEqual({ pipefail: true, sigpipeExpected: false });
    expect(pipefailNeed("docker inspect -f '{{.State.Running}}' c | grep -qx true")).toEqual({ pipefail: false, sigpipeExpected: false });
    expect(pipefailNeed('docker ps -q | wc -l')).toEqual({ pipefail: false, sigpipeExpected: false });
    expect(pipefailNeed('curl -s localhost:8000/v1/models | python3 -m json.tool')).toEqual({ pipefail: false, sigpipeExpected: false });
    expect(pipefailNeed('systemctl stop a && echo done')).toEqual({ pipefail: false, sigpipeExpected: false });
  });

  it('makes a missing program fail the step in bash and in dash (which runs it in bash then)', () => {
    for (const shell of ['bash', 'dash']) {
      const missing = run(shell, 'no-such-docker pull x 2>&1 | tail -3');
      expect(missing.code, shell).toBe(127);
      expect(run(shell, 'echo fine | tail -1').code, shell).toBe(0);
    }
  });
});

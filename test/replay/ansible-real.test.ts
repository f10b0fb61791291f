import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestHosts } from '../ssh/harness.js';
import { runRetrace } from '../helpers/cli.js';
import { ingestPaths } from '../helpers/ingest.js';
import { SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { useTestHosts } from './helpers/hosts.js';

// The Ansible export of an EDITED plan, run for real: ansible-playbook (Debian's ansible-core,
// installed by scripts/ensure-test-tools.sh) against the sshd test hosts with the simulated
// toolset. First run applies, second changes nothing, a failing step fails the play and shows
// its exit and output without the secret.
const dir = tempDir('retrace-ansible-');
const dbPath = tempDbPath(dir);
const planPath = join(dir, 'edited.yaml');
const SECRETS = { HF_TOKEN: 'hf_ansibleTESTtoken0000000000000000001', PYPI_PASSWORD: 'pw-ansible-test', API_KEY: 'sk-ansible-test-key-0000000000000000000' };
let hosts: TestHosts;

function inventory(): string {
  const line = (role: 'head' | 'worker') => `${role}-1 ansible_host=${hosts.host(role).address} ansible_port=${hosts.host(role).port}`;
  return [
    '[head]', line('head'), '', '[worker]', line('worker'), '',
    '[all:vars]',
    `ansible_user=${hosts.host('head').user}`,
    `ansible_ssh_private_key_file=${hosts.clientKeyPath}`,
    'ansible_python_interpreter=/usr/bin/python3',
    // The test hosts' HOME is not the account's home from /etc/passwd, which async_status would use.
    `ansible_async_dir=${join(hosts.rootDir, 'ansible-async')}`,
    `ansible_ssh_common_args='-F /dev/null -o UserKnownHostsFile=${hosts.knownHostsPath} -o StrictHostKeyChecking=yes'`,
    '',
  ].join('\n');
}

function playbook(folder: string): { code: number | null; out: string } {
  const result = spawnSync('ansible-playbook', ['-i', join(folder, 'hosts.ini'), join(folder, 'playbook.yml'), '-e', 'retrace_yes=true'], {
    encoding: 'utf8',
    timeout: 400_000,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, ANSIBLE_LOCAL_TEMP: join(dir, 'ansible-tmp'), ANSIBLE_NOCOLOR: '1', ANSIBLE_RETRY_FILES_ENABLED: 'false', ANSIBLE_HOST_KEY_CHECKING: 'true', ...SECRETS },
  });
  return { code: result.status, out: `${result.stdout}\n${result.stderr}` };
}

/** `host : ok=N changed=N unreachable=N failed=N …` of the PLAY RECAP, per host. */
function recap(out: string): Record<string, Record<string, number>> {
  const hostsSeen: Record<string, Record<string, number>> = {};
  for (const match of out.matchAll(/^(\S+)\s+:\s+((?:\w+=\d+\s*)+)$/gm)) {
    hostsSeen[match[1] ?? ''] = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)=(\d+)/g)].map((m) => [m[1] ?? '', Number(m[2])]));
  }
  return hostsSeen;
}

beforeAll(async () => {
  hosts = await useTestHosts();
  await ingestPaths(dbPath, [SESSIONS_DIR]);
  expect((await runRetrace(['plan', 'Qwen3.5', '-o', planPath, '--db', dbPath])).code).toBe(0);
  // The operator's edit: another container name, and no chat check.
  const plan = parse(readFileSync(planPath, 'utf8')) as { variables: Record<string, { value?: string }>; steps: { id: string }[] };
  plan.variables['container'] = { value: 'qwen-fleet' };
  plan.steps = plan.steps.filter((step) => step.id !== 'check-chat-completions');
  writeFileSync(planPath, stringify(plan));
}, 120_000);

describe('export PLAN.yaml --to ansible, run by ansible-playbook', () => {
  it('applies, then changes nothing; a failing step fails the play with its exit and redacted output', { timeout: 900_000 }, async () => {
    const folder = join(dir, 'playbook');
    const exported = await runRetrace(['export', planPath, '--to', 'ansible', '-o', folder]);
    expect(exported.code, exported.stderr).toBe(0);
    writeFileSync(join(folder, 'hosts.ini'), inventory());

    const first = playbook(folder);
    expect(first.code, first.out.slice(-4000)).toBe(0);
    const applied = recap(first.out);
    expect(applied['head-1']?.['failed']).toBe(0);
    expect(applied['head-1']?.['changed']).toBeGreaterThan(5);
    expect(applied['worker-1']?.['changed']).toBeGreaterThan(2);
    expect(readFileSync(join(hosts.host('head').stateDir, 'containers', 'qwen-fleet', 'state'), 'utf8').trim()).toBe('running');
    for (const value of Object.values(SECRETS)) expect(first.out).not.toContain(value);

    const second = playbook(folder);
    expect(second.code, second.out.slice(-4000)).toBe(0);
    const again = recap(second.out);
    expect(again['head-1']).toMatchObject({ changed: 0, failed: 0 });
    expect(again['worker-1']).toMatchObject({ changed: 0, failed: 0 });

    // A step that fails, carrying a secret: the play fails, says how, and never shows the secret.
    const broken = parse(readFileSync(planPath, 'utf8')) as { steps: Record<string, unknown>[] };
    broken.steps.splice(3, 0, { id: 'broken-step', roles: ['worker'], command: 'echo "using ${HF_TOKEN} here"; exit 3' });
    const brokenPath = join(dir, 'broken.yaml');
    writeFileSync(brokenPath, stringify(broken));
    const brokenFolder = join(dir, 'broken');
    mkdirSync(brokenFolder);
    expect((await runRetrace(['export', brokenPath, '--to', 'ansible', '-o', brokenFolder])).code).toBe(0);
    writeFileSync(join(brokenFolder, 'hosts.ini'), inventory());
    const failed = playbook(brokenFolder);
    expect(failed.code).not.toBe(0);
    expect(recap(failed.out)['worker-1']?.['failed']).toBe(1);
    expect(failed.out).toContain('broken-step failed: exit 3');
    expect(failed.out).toContain('using [REDACTED:env:HF_TOKEN] here');
    expect(failed.out).not.toContain(SECRETS.HF_TOKEN);
    // Nothing after it ran: the play stopped.
    expect(failed.out).not.toMatch(/TASK \[download-model/);
  });
});

// --resume replays what the user changed: the plan file is read again, the run's own --var
// values are kept, a step that was fixed or changed runs in its new form, and an earlier attempt
// still running on the host (retrace was killed under it) is stopped first: never two copies.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { listRuns, loadRun } from '../../src/store/run-queries.js';
import type { TestHosts } from '../ssh/harness.js';
import { runRetrace } from '../helpers/cli.js';
import { queryStore } from '../helpers/ingest.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { startRetrace } from './helpers/cli-child.js';
import { hostSpec, useTestHosts } from './helpers/hosts.js';

const dir = tempDir('retrace-resume-');
const dbPath = tempDbPath(dir);
const planPath = join(dir, 'plan.yaml');
const ENV = { HOME: dir, SSH_AUTH_SOCK: '' };
let hosts: TestHosts;

function planWith(steps: { id: string; command: string }[]): string {
  return JSON.stringify({
    version: 1,
    session: { id: 'ses_resume', title: 'resume what changed' },
    roles: { head: {} },
    variables: { v: { value: 'recorded-value' } },
    steps: steps.map((step) => ({ ...step, roles: ['head'], timeout_s: 60 })),
  });
}

function sshArgs(): string[] {
  return ['--db', dbPath, '--known-hosts', hosts.knownHostsPath, '--identity', hosts.clientKeyPath, '--ssh-config', '/dev/null'];
}

beforeAll(async () => {
  hosts = await useTestHosts({ roles: ['head'] });
});

describe('--resume', () => {
  it('keeps the run\'s --var, re-reads the edited plan, re-runs changed steps and stops the earlier attempt still running', { timeout: 120_000 }, async () => {
    const home = hosts.host('head').homeDir;
    writeFileSync(planPath, planWith([
      { id: 'write-value', command: "printf '%s\\n' {{ v }} >> ~/values.txt" },
      { id: 'slow', command: 'sleep 40; touch ~/first-attempt' },
    ]));
    const cli = startRetrace(['replay', planPath, '--live', '--yes', '--var', 'v=value given with --var', '--host', `head=${hostSpec(hosts, 'head')}`, ...sshArgs()], ENV);
    await cli.waitFor(/^… \[head\] slow/);
    // While it runs, a resume from another terminal is refused: it would stop the run's own steps.
    const [running] = await queryStore(dbPath, listRuns);
    expect(running).toMatchObject({ status: 'running' });
    const second = await runRetrace(['replay', '--resume', running?.id ?? '', '--yes', ...sshArgs()], { env: ENV });
    expect(second.code, second.stderr).toBe(2);
    expect(second.stderr).toContain(`${running?.id} is still running`);
    await new Promise((resolve) => setTimeout(resolve, 500)); // the host reports the process group
    cli.child.kill('SIGKILL');
    await cli.exited;
    const [killed] = await queryStore(dbPath, listRuns);
    expect(killed).toMatchObject({ status: 'abandoned' });
    const partial = await queryStore(dbPath, (db) => loadRun(db, killed?.id ?? ''));
    expect(partial.vars).toEqual({ v: 'value given with --var' });
    expect(partial.step_rows.find((s) => s.step_id === 'slow')?.remote_pgid).toBeGreaterThan(1);

    // The user fixes the slow step and adds one; the first step is unchanged and stays done.
    writeFileSync(planPath, planWith([
      { id: 'write-value', command: "printf '%s\\n' {{ v }} >> ~/values.txt" },
      { id: 'slow', command: 'touch ~/second-attempt' },
      { id: 'write-again', command: "printf '%s\\n' {{ v }} > ~/again.txt" },
    ]));
    const resumed = await runRetrace(['replay', '--resume', killed?.id ?? '', '--yes', ...sshArgs()], { env: ENV });
    expect(resumed.code, `${resumed.stdout}\n${resumed.stderr}`).toBe(0);
    expect(resumed.stdout + resumed.stderr).toMatch(/stopped the earlier attempt of .*slow\/head/);
    const done = await queryStore(dbPath, (db) => loadRun(db, killed?.id ?? ''));
    expect(done.step_rows.map((s) => `${s.step_id}:${s.status}:${s.attempt}`)).toEqual(['write-value:ok:1', 'slow:ok:2', 'write-again:ok:1']);
    expect(readFileSync(join(home, 'values.txt'), 'utf8')).toBe('value given with --var\n');
    expect(readFileSync(join(home, 'again.txt'), 'utf8')).toBe('value given with --var\n');
    expect(existsSync(join(home, 'second-attempt'))).toBe(true);
    // The first attempt was stopped, not left to finish beside the second (the test hosts' processes are this machine's).
    const sleeping = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n').filter((line) => /sleep 40\b/.test(line));
    expect(sleeping).toEqual([]);
    expect(existsSync(join(home, 'first-attempt'))).toBe(false);

    // A step changed after it finished runs again in its new form on the next resume of a failed run.
    writeFileSync(planPath, planWith([
      { id: 'write-value', command: "printf '%s\\n' {{ v }} >> ~/values.txt; true" },
      { id: 'slow', command: 'touch ~/second-attempt' },
      { id: 'write-again', command: "printf '%s\\n' {{ v }} > ~/again.txt" },
      { id: 'fails', command: 'exit 3' },
    ]));
    expect((await runRetrace(['replay', '--resume', killed?.id ?? '', '--yes', ...sshArgs()], { env: ENV })).code).toBe(1);
    expect(readFileSync(join(home, 'values.txt'), 'utf8')).toBe('value given with --var\nvalue given with --var\n');
    const last = await queryStore(dbPath, (db) => loadRun(db, killed?.id ?? ''));
    expect(last.step_rows.map((s) => `${s.step_id}:${s.status}:${s.attempt}`)).toEqual(['write-value:ok:2', 'slow:ok:2', 'write-again:ok:1', 'fails:failed:1']);
  });
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runRetrace } from '../helpers/cli.js';
import { sampleExportPath } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { hostSpec, useTestHosts } from '../replay/helpers/hosts.js';
import { TmuxTerminal } from './tmux.js';

/**
 * The live half of the end-to-end test: a real live replay of the sample's plan against the two
 * SSH test hosts (127.0.0.2/3, simulated Sparks), watched and steered in the real TUI in tmux:
 * destructive steps confirmed on screen, the run paused, one step skipped, the record compared.
 */
const SAMPLE = 'ses_365d176c7ffeX5TaQTV86dNCf0';
const SECRETS = { HF_TOKEN: 'hf_tuiTESTtokenNeverStored00000000001', PYPI_PASSWORD: 'pw-tui-NEVER-stored-11', API_KEY: 'sk-tui-test-NEVER-stored-000000000000' };
const dir = tempDir('retrace-tui-live-');
const db = tempDbPath(dir);
const planPath = join(dir, 'qwen.yaml');
let replayCommand = '';
let terminal: TmuxTerminal | null = null;

describe('a live run in the TUI against the SSH test hosts', () => {
  beforeAll(async () => {
    const hosts = await useTestHosts();
    expect((await runRetrace(['ingest', sampleExportPath(), '--db', db])).code).toBe(0);
    const planned = await runRetrace(['plan', SAMPLE, '-o', planPath, '--db', db]);
    expect(planned.code, planned.stderr).toBe(0);
    // The real command a user types, with the harness's keys and known_hosts (never ~/.ssh).
    const env = Object.entries({ ...SECRETS, SSH_AUTH_SOCK: '', HOME: hosts.rootDir }).map(([k, v]) => `${k}=${v}`).join(' ');
    replayCommand = [
      `env ${env} node ${REPO_ROOT}bin/retrace.js replay ${planPath} --live --tui --db ${db}`,
      `--host head=${hostSpec(hosts, 'head')} --host worker=${hostSpec(hosts, 'worker')}`,
      `--known-hosts ${hosts.knownHostsPath} --identity ${hosts.clientKeyPath} --ssh-config /dev/null`,
      '--keepalive-interval 0.5 --keepalive-count 2',
    ].join(' ');
  }, 180_000);

  afterEach(() => {
    terminal?.stop();
    terminal = null;
  });

  it('confirms destructive steps, pauses, skips one step, finishes, compares with the record, and quits cleanly', async () => {
    const tty = new TmuxTerminal('live');
    terminal = tty;
    await tty.start(80, 24);
    tty.run(`${replayCommand}; echo "EXIT=$?"`);

    await tty.waitForText('Run destructive step stop-vllm-cluster-vllm-proxy', 60_000);
    expect(tty.screen()).toContain('y yes · n no · s skip it');
    await tty.press('y');
    await tty.waitForText('Run destructive step stop-vllm-embeddings-vllm-reranker', 30_000);
    await tty.press('y', 'p');
    await tty.waitForText('‖ paused (p resumes)', 60_000);

    await tty.stepUntil('j', (line) => line.includes('check-cluster'), 'the check-cluster step');
    await tty.press('s');
    await tty.waitForText('skip asked for check-cluster');
    await tty.press('p');

    const finished = await tty.waitForText('finished: ok', 120_000);
    // The README's capture of a real live run (RETRACE_UPDATE_SCREENS=1 refreshes it).
    if (process.env['RETRACE_UPDATE_SCREENS'] === '1') writeFileSync(join(REPO_ROOT, 'docs', 'screens', 'live-run-ssh.txt'), finished);
    expect(finished).toMatch(/Live run · run_/);
    expect(finished).toMatch(/» skipped +check-cluster/);
    expect(finished).toContain('15/15 steps done');
    await tty.press('g');
    await tty.waitFor((screen) => /› ✓ ok +stop-vllm-cluster-vllm-proxy +head /.test(screen), 'the first step, ok');

    await tty.press('c');
    const compare = await tty.waitForText('Run vs record · run_');
    expect(compare).toMatch(/role:step +│ recorded +│ this run +│ verdict/);
    await tty.press('Escape', 'q');
    await tty.waitForText('EXIT=0', 30_000);
    const runs = await runRetrace(['runs', '--db', db, '--json']);
    expect(JSON.parse(runs.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ mode: 'live', status: 'ok' })]));
    expect(tty.display('#{alternate_on}')).toBe('0');
    expect(tty.display('#{cursor_flag}')).toBe('1');
  }, 300_000);
});

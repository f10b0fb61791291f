// The plan of a deployment that is not the bundled sample: a CPU VPS set up with docker compose,
// nginx, certbot and a systemd unit (the blind eval story ollama-openwebui-vps-compose-nginx, as
// Claude Code writes it). The test corpus of real transcripts holds no deployment (see
// test/fixtures/real/SOURCES.md), so this is the closest thing: written by someone who never read
// the plan code. Its plan must carry the working directory, write the files the agent wrote, and
// keep no look-up, failed step or recorded PID; it runs live on a test host with the VPS stub
// toolset (test/vps-sim: docker compose, nginx, certbot, systemd units), in a moved workdir, twice:
// the second time every guarded step is already done and the secret is kept.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { Plan } from '../../src/core/plan/schema.js';
import { NothingToReplayError, type Decision } from '../../src/replay/plan/extract.js';
import { planFromStore } from '../../src/replay/plan/load.js';
import { Database } from '../../src/store/database.js';
import { listRuns, loadRun } from '../../src/store/run-queries.js';
import type { TestHosts } from '../ssh/harness.js';
import { REPO_ROOT, runRetrace } from '../helpers/cli.js';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { hostSpec, useTestHosts } from './helpers/hosts.js';

const dir = tempDir('retrace-plan-vps-');
const dbPath = tempDbPath(dir);
const TRANSCRIPT = join(REPO_ROOT, 'eval', 'transcripts', 'ollama-openwebui-vps-compose-nginx');
const SESSION = '9fc43594-b7e6-4ba3-acd9-d00ba0f1fe0e';
let plan: Plan;
let decisions: Decision[];

beforeAll(async () => {
  await ingestPaths(dbPath, [TRANSCRIPT]);
  const db = await Database.open(dbPath);
  try {
    ({ plan, decisions } = await planFromStore(db, SESSION));
  } finally {
    db.close();
  }
});

const why = (ordinal: number): string[] => decisions.filter((d) => d.messageOrdinal === ordinal).map((d) => `${d.kept ? 'kept' : 'dropped'}: ${d.why}`);

describe('the plan of a compose + nginx + systemd deployment', () => {
  it('runs every command step in the project directory the agent cd-ed into, through its variable even though the session started in the home', () => {
    const commands = plan.steps.filter((s) => s.file === null);
    expect(commands.length).toBeGreaterThanOrEqual(6);
    expect(commands.map((s) => s.workdir)).toEqual(commands.map(() => '{{ head_workdir }}'));
    expect(plan.variables['head_workdir']).toMatchObject({ value: '/home/ana/chatbox' });
    // The relative paths stay relative: they need the directory.
    expect(commands.find((s) => s.id === 'pull-image')?.command).toBe('docker compose -f deploy/compose.yml --env-file .env pull');
  });

  it('writes the compose file, the nginx site and the unit with their final content, guarded by its content, before the steps that use them', () => {
    const files = plan.steps.filter((s) => s.file !== null);
    expect(files.map((s) => s.file?.path)).toEqual([
      '/home/ana/chatbox/deploy/compose.yml',
      '/home/ana/chatbox/deploy/nginx/chat.conf',
      '/home/ana/chatbox/deploy/systemd/llm-stack.service',
    ]);
    for (const step of files) {
      expect(step.command).toMatch(/^mkdir -p '\{\{ head_workdir \}\}\/deploy[/\w]*' && cat > '\{\{ head_workdir \}\}\/deploy\//);
    }
    // Files that name no moved value: guarded by the recorded sha256.
    for (const step of files.slice(0, 2)) expect(step.guard).toContain(step.file?.sha256 ?? 'no sha256');
    // The unit as the agent left it: written at #12, fixed by an edit at #16 (WorkingDirectory), which
    // names the workdir: written as its placeholder, so `--var head_workdir=` moves it too; its guard
    // compares the rendered content.
    const unit = files[2]?.command ?? '';
    expect(unit).toContain('WorkingDirectory={{ head_workdir }}\n');
    expect(unit).not.toContain('/home/ana/chatbox');
    expect(files[2]?.guard).toMatch(/^cmp -s '\{\{ head_workdir \}\}\/deploy\/systemd\/llm-stack\.service' - <<RETRACE_EOF\n/);
    expect(files.filter((s) => s.file?.path.endsWith('llm-stack.service'))).toHaveLength(1);
    const index = (id: string) => plan.steps.findIndex((s) => s.id === id);
    const uses = (text: string) => plan.steps.findIndex((s) => s.file === null && s.command.includes(text));
    expect(index(files[0]?.id ?? '')).toBeLessThan(uses('deploy/compose.yml'));
    expect(index(files[1]?.id ?? '')).toBeLessThan(uses('deploy/nginx/chat.conf'));
    expect(index(files[2]?.id ?? '')).toBeLessThan(uses('deploy/systemd/llm-stack.service'));
  });

  it('keeps no look-up, no failed step, no recorded PID and no stray of the recorded machine, each dropped with its reason', () => {
    const text = plan.steps.map((s) => s.command).join('\n');
    // Registry and release API look-ups (#3), inspections, failed restarts (#14, #17).
    expect(text).not.toMatch(/hub\.docker\.com|api\.github\.com|--help|journalctl/);
    expect(why(3)).toEqual(['dropped: a look-up (inspect): changes nothing', 'dropped: a look-up (fetch): changes nothing']);
    expect(why(14)).toEqual(['dropped: failed (exit 1); the same action worked later (#23)']);
    expect(why(17)).toEqual(['dropped: failed (exit 1) and was not fixed later']);
    expect(plan.steps.every((s) => s.expect.exit === 0 || s.expect.exit === null)).toBe(true);
    // The stray `ollama serve` (PID 1893, started by hand before the session) and the binary it
    // removed: the recorded machine's own, which another machine need not have.
    expect(text).not.toMatch(/\b1893\b|pkill|ollama serve|\/usr\/local\/bin\/ollama/);
    expect(why(22)).toEqual(['dropped: stops a process the session did not start (1893) and removes what the recorded machine had: another machine need not run it']);
  });

  it('makes the .env secret once: a file that holds the key is left alone', () => {
    const env = plan.steps.find((s) => s.command.includes('cp .env.example .env'));
    expect(env?.guard).toBe("[ -f .env ] && grep -q '^WEBUI_SECRET_KEY=.' .env");
    // Where .env exists without the key, `cp` replaces it: that needs a yes.
    expect(env?.destructive).toBe(true);
  });

  it('keeps the agent\'s sed of .env as it was: a regex next to a secret-ish name is code, not a secret', () => {
    const env = plan.steps.find((s) => s.command.includes('cp .env.example .env'));
    expect(env?.command).toContain('sed -i "s/^WEBUI_SECRET_KEY=.*/WEBUI_SECRET_KEY=$(openssl rand -hex 32)/" .env');
    expect(plan.variables['WEBUI_SECRET_KEY']).toBeUndefined();
  });

  it('guards a service start only where starting it is all the step does', () => {
    // Installing the nginx site and reloading: a running nginx does not prove the site is there.
    const site = plan.steps.find((s) => s.command.includes('/etc/nginx/sites-available'));
    expect(site?.guard).toBeNull();
    const restart = plan.steps.find((s) => s.command.startsWith('sudo systemctl restart llm-stack'));
    expect(restart?.guard).toBeNull();
  });

  it('shows the working directory and the written files in its dry run and its runbook', { timeout: 120_000 }, async () => {
    const planPath = join(dir, 'vps.yaml');
    expect((await runRetrace(['plan', SESSION, '-o', planPath, '--db', dbPath])).code).toBe(0);
    const dry = await runRetrace(['replay', planPath, '--db', dbPath]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('in /home/ana/chatbox');
    expect(dry.stdout).toMatch(/writes \/home\/ana\/chatbox\/deploy\/compose\.yml \(sha256 [0-9a-f]{12}…\)/);
    expect(dry.stdout).toContain('Dry run: nothing was executed.');
    // The same plan file as a runbook (`export PLAN.yaml --to markdown`): each step with its directory.
    const runbook = await runRetrace(['export', planPath, '--to', 'markdown']);
    expect(runbook.code, runbook.stderr).toBe(0);
    expect(runbook.stdout).toContain('# Runbook: Ollama + Open WebUI behind nginx on vps-chat-01');
    expect(runbook.stdout).toContain('```sh\ncd /home/ana/chatbox || exit 1\ndocker compose -f deploy/compose.yml --env-file .env pull\n```');
    expect(runbook.stdout.match(/^### \d+\. /gm)).toHaveLength(plan.steps.length);
  });
});

describe('sessions that deployed nothing', () => {
  const planOf = async (story: string, session: string) => {
    const path = tempDbPath(dir);
    await ingestPaths(path, [join(REPO_ROOT, 'eval', 'transcripts', story)]);
    const store = await Database.open(path);
    try {
      return await planFromStore(store, session);
    } finally {
      store.close();
    }
  };

  it('a clean-up gives a clean-up plan of what it removed on each host; the call the user rejected never ran and is not in it', { timeout: 120_000 }, async () => {
    const { plan: cleanup, decisions: why } = await planOf('cleanup-gpu-hosts-vllm-prune', '019b22e2-3ad8-7bba-9a0d-78bcd7d46af9');
    expect(cleanup.purpose).toBe('cleanup');
    const text = cleanup.steps.map((s) => s.command).join('\n');
    for (const removal of ['docker rm vllm-llama70b-old', 'docker rm vllm-embed-old vllm-rerank-test', 'docker image prune -a -f', 'docker builder prune -a -f', 'rm -rf models--meta-llama--Llama-3.1-405B-Instruct-FP8']) {
      expect(text).toContain(removal);
    }
    expect(cleanup.steps.every((s) => s.destructive)).toBe(true);
    // `docker system prune -a --volumes` was stopped by the user: it never ran, so it is never replayed.
    expect(text).not.toContain('--volumes');
    expect(why.filter((d) => d.messageOrdinal === 7).map((d) => d.why)).toEqual(['never ran: the tool call was rejected or refused (exec command rejected by user)']);
  });

  it('a session that deployed nothing gives no plan, and says why', { timeout: 120_000 }, async () => {
    const none = planOf('bench-tokens-per-second-bug', 'ses_461978ed3ffeAHANdJ18qvDZpV');
    await expect(none).rejects.toThrow(NothingToReplayError);
    await expect(none).rejects.toThrow(/no plan: the session deployed nothing: no candidate was accepted/);
  });
});

describe('the plan of a compose + nginx + systemd deployment, on a test host', () => {
  let hosts: TestHosts;
  beforeAll(async () => {
    // The VPS toolset (test/vps-sim): docker compose, nginx, certbot and systemd units, with /etc
    // under the host's own simulated root (sudo maps it there), never this machine's.
    hosts = await useTestHosts({ roles: ['head'], toolsets: ['vps'] });
  });

  it('runs every step live in a moved workdir, and a second run skips what is done and keeps the secret', { timeout: 180_000 }, async () => {
    const head = hosts.host('head');
    // The host as the agent found it: the project checked out, nginx installed and running, docker there.
    const project = join(head.homeDir, 'chatbox');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, '.env.example'), 'WEBUI_SECRET_KEY=change-me\nENABLE_SIGNUP=false\n');
    writeFileSync(join(project, '.gitignore'), '.env\n');
    const root = join(head.stateDir, 'root');
    for (const dir of ['etc/nginx/sites-available', 'etc/nginx/sites-enabled', 'etc/systemd/system', 'lib/systemd/system', 'usr/local/bin']) mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, 'lib/systemd/system/nginx.service'), '[Unit]\nDescription=A high performance web server\n[Service]\nExecStart=/usr/sbin/nginx -t\nExecReload=/usr/sbin/nginx -s reload\n[Install]\nWantedBy=multi-user.target\n');
    writeFileSync(join(root, 'lib/systemd/system/docker.service'), '[Unit]\nDescription=Docker Application Container Engine\n[Service]\nExecStart=/bin/true\n');
    for (const unit of ['nginx', 'docker']) {
      mkdirSync(join(head.stateDir, 'units', unit), { recursive: true });
      writeFileSync(join(head.stateDir, 'units', unit, 'active'), 'Mon 2026-01-05 09:00:00 UTC\n');
      writeFileSync(join(head.stateDir, 'units', unit, 'enabled'), '');
    }
    const planPath = join(dir, 'vps-live.yaml');
    writeFileSync(planPath, stringify(plan));
    const replay = () => runRetrace(['replay', planPath, '--live', '--yes', '--db', dbPath, '--known-hosts', hosts.knownHostsPath, '--identity', hosts.clientKeyPath,
      '--ssh-config', '/dev/null', '--host', `head=${hostSpec(hosts, 'head')}`, '--var', `head_workdir=${project}`], { env: { HOME: dir, SSH_AUTH_SOCK: '' } });
    const lastRun = async () => {
      const last = (await queryStore(dbPath, listRuns)).filter((r) => r.mode === 'live').at(-1);
      return (await queryStore(dbPath, (db) => loadRun(db, last?.id ?? ''))).step_rows.map((s) => `${s.step_id}:${s.status}`);
    };

    const first = await replay();
    expect(first.code, `${first.stdout}\n${first.stderr}`).toBe(0);
    expect(await lastRun()).toEqual(plan.steps.map((s) => `${s.id}:ok`));
    const env = readFileSync(join(project, '.env'), 'utf8');
    expect(env).toMatch(/^WEBUI_SECRET_KEY=[0-9a-f]{64}$/m);
    // Each file as the agent left it; the unit's WorkingDirectory follows the moved workdir.
    for (const step of plan.steps.filter((s) => s.file !== null && !s.file.path.endsWith('.service'))) {
      const written = readFileSync(join(project, (step.file?.path ?? '').replace('/home/ana/chatbox/', '')));
      expect(createHash('sha256').update(written).digest('hex'), step.id).toBe(step.file?.sha256);
    }
    expect(readFileSync(join(project, 'deploy/systemd/llm-stack.service'), 'utf8')).toContain(`WorkingDirectory=${project}\n`);
    // What the steps did to the (simulated) machine: the site enabled, the certificate, the unit enabled and started, the model pulled.
    expect(readFileSync(join(root, 'etc/nginx/sites-enabled/chat.conf'), 'utf8')).toBe(readFileSync(join(project, 'deploy/nginx/chat.conf'), 'utf8'));
    expect(readFileSync(join(root, 'etc/letsencrypt/live/chat.demo.example.net/fullchain.pem'), 'utf8')).toContain('chat.demo.example.net');
    expect(readFileSync(join(root, 'etc/systemd/system/multi-user.target.wants/llm-stack.service'), 'utf8')).toContain(`WorkingDirectory=${project}`);
    expect(readFileSync(join(head.stateDir, 'units/llm-stack/active'), 'utf8')).not.toBe('');
    expect(readFileSync(join(head.stateDir, 'compose/llm-stack/services/open-webui'), 'utf8')).toMatch(/^ghcr\.io\/open-webui\/open-webui:v0\.6\.40\t/);
    expect(readFileSync(join(head.stateDir, 'compose/llm-stack/models/llama3.2_3b'), 'utf8')).toBe('');

    const second = await replay();
    expect(second.code, `${second.stdout}\n${second.stderr}`).toBe(0);
    const guarded = new Set(plan.steps.filter((s) => s.guard !== null).map((s) => s.id));
    expect(await lastRun()).toEqual(plan.steps.map((s) => `${s.id}:${guarded.has(s.id) ? 'guarded' : 'ok'}`));
    // The secret the machine has is never replaced.
    expect(readFileSync(join(project, '.env'), 'utf8')).toBe(env);
  });
});

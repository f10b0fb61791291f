import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runRetrace, runRetraceJson } from '../helpers/cli.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { writeSynthetic } from '../query/helpers/synthetic-session.js';

/**
 * A framework retrace has never heard of, taught through a user rules folder only: its launcher,
 * its health endpoint, its readiness line, its failure signature and its version line. Candidates,
 * verdicts, the why and the plan follow the file; removing it re-derives the tree without it.
 */
const FOOSERVE = `id: fooserve
kind: framework
label: FooServe
description: A made-up serving stack, to prove a framework is one file.
names: ['fooserve']
images: [acme/fooserve]
launch:
  - program: fooserve
    subcommand: serve
    model_position: 1
    examples:
      match: ['fooserve serve acme/Widget-7B --port 9000']
      no_match: ['fooserve --version']
options:
  port: [--port]
health:
  paths: [/fooserve/status]
  port: 9000
versions:
  - component: fooserve
    label: FooServe
    pattern: '{START}FooServe(?: version)?{SEP}{VERSION}'
    in_reason: always
    examples:
      match: ['FooServe version 1.1.0']
signatures:
  - id: fooserve-weights-too-big
    description: FooServe could not fit the weights in GPU memory.
    effect: failure
    decides: [serve, start, probe]
    keywords: [FOOSERVE-E042]
    pattern: 'FOOSERVE-E042: weights do not fit in (\\S+ GiB)'
    label: 'FooServe E042: the weights do not fit in {1}'
    priority: 14
    examples:
      match: ['[fatal] FOOSERVE-E042: weights do not fit in 24 GiB']
      no_match: ['E041: slow disk']
  - id: fooserve-ready
    description: FooServe is serving.
    effect: ready
    decides: [serve, start]
    keywords: [ready to serve]
    pattern: 'FooServe \\S+ is ready to serve'
    label: 'server ready'
    priority: 55
    examples:
      match: ['FooServe 1.1.0 is ready to serve on :9000']
`;

const SESSION = 'ses_fooserve_story';

async function writeStory(dbPath: string): Promise<void> {
  await writeSynthetic(dbPath, {
    id: SESSION,
    title: 'Widget on fooserve',
    steps: [
      { role: 'user', text: 'Please deploy acme/Widget-7B-Instruct on the lab box with fooserve, port 9000.' },
      { role: 'assistant', text: 'Pulling fooserve 1.0.', calls: [{ command: 'docker pull acme/fooserve:1.0', output: '1.0: Pulling from acme/fooserve\nStatus: Downloaded newer image for acme/fooserve:1.0' }] },
      {
        role: 'assistant',
        text: 'Starting it in the foreground to see it load.',
        calls: [{
          command: 'docker run --rm --gpus all -p 9000:9000 acme/fooserve:1.0 fooserve serve acme/Widget-7B-Instruct --port 9000',
          output: 'FooServe version 1.0.3\nloading acme/Widget-7B-Instruct\n[fatal] FOOSERVE-E042: weights do not fit in 24 GiB\n',
          exit: 1,
        }],
      },
      { role: 'assistant', text: 'fooserve 1.0 cannot fit the weights. Trying acme/fooserve:1.1, which offloads.', calls: [{ command: 'docker pull acme/fooserve:1.1', output: 'Status: Downloaded newer image for acme/fooserve:1.1' }] },
      {
        role: 'assistant',
        text: 'Starting 1.1 detached.',
        calls: [{ command: 'docker run -d --name widget --gpus all -p 9000:9000 acme/fooserve:1.1 fooserve serve acme/Widget-7B-Instruct --port 9000', output: '4f1c2b9e8d7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f10' }],
      },
      { role: 'assistant', text: 'Checking the logs.', calls: [{ command: 'docker logs widget 2>&1 | tail -2', output: 'FooServe version 1.1.0\nFooServe 1.1.0 is ready to serve on :9000' }] },
      { role: 'assistant', text: 'Health check.', calls: [{ command: "curl -s -o /dev/null -w '%{http_code}' localhost:9000/fooserve/status", output: '200' }] },
      { role: 'assistant', text: 'acme/fooserve:1.1 serves Widget on port 9000.' },
    ],
  });
}

interface TreeJson {
  candidates: { name: string; verdict: string; reason: string }[];
}

/** Each stored candidate's framework (the tree's JSON contract does not carry it; the table does). */
async function frameworks(dbPath: string, env: NodeJS.ProcessEnv): Promise<Record<string, string | null>> {
  const rows = await runRetraceJson<{ name: string; framework: string | null }[]>(['sql', `SELECT name, framework FROM candidates WHERE session_id = '${SESSION}'`, '--db', dbPath], { env });
  return Object.fromEntries(rows.json.map((row) => [row.name, row.framework]));
}

describe('a framework added through a user rules folder only', () => {
  const home = tempDir('retrace-rules-home-');
  const rulesDir = join(home, 'config', 'retrace', 'rules');
  const env = { XDG_CONFIG_HOME: join(home, 'config') };
  const dbPath = tempDbPath(tempDir());

  beforeAll(async () => {
    await writeStory(dbPath);
    mkdirSync(rulesDir, { recursive: true });
    writeFileSync(join(rulesDir, 'fooserve.yaml'), FOOSERVE);
  });

  it('`rules check` finds the file valid; `rules list` shows where it came from', async () => {
    const check = await runRetrace(['rules', 'check', join(rulesDir, 'fooserve.yaml')], { env });
    expect(check.stdout).toContain('valid');
    expect(check.code).toBe(0);
    const list = await runRetraceJson<{ rules: { id: string; file: string }[] }>(['rules', 'list'], { env });
    expect(list.json.rules).toContainEqual(expect.objectContaining({ id: 'fooserve', file: join(rulesDir, 'fooserve.yaml') }));
  });

  it('gives its candidates, verdicts, why and plan steps; removing the file re-derives without it', async () => {
    const tree = await runRetrace(['tree', SESSION, '--db', dbPath, '--format', 'json'], { env });
    expect(tree.code, tree.stderr).toBe(0);
    const candidates = (JSON.parse(tree.stdout) as TreeJson).candidates;
    expect(candidates).toContainEqual(expect.objectContaining({ name: 'acme/fooserve:1.0', verdict: 'rejected', reason: expect.stringContaining('FooServe E042: the weights do not fit in 24 GiB') }));
    expect(candidates).toContainEqual(expect.objectContaining({ name: 'acme/fooserve:1.1', verdict: 'accepted', reason: expect.stringContaining('FooServe 1.1.0') }));
    expect(await frameworks(dbPath, env)).toEqual({ 'acme/fooserve:1.0': 'fooserve', 'acme/fooserve:1.1': 'fooserve' });

    const why = await runRetraceJson<{ candidates: { name: string; reason: string }[] }>(['why', 'fooserve:1.0', '--db', dbPath], { env });
    expect(why.json.candidates[0]?.reason).toContain('E042');

    const planFile = join(home, 'plan.yaml');
    const plan = await runRetrace(['plan', SESSION, '--db', dbPath, '-o', planFile], { env });
    expect(plan.code, plan.stderr).toBe(0);
    const planText = readFileSync(planFile, 'utf8');
    expect(planText).toContain('fooserve serve');
    expect(planText).toContain('localhost:9000/fooserve/status');

    rmSync(join(rulesDir, 'fooserve.yaml'));
    const without = await runRetrace(['tree', SESSION, '--db', dbPath, '--format', 'json'], { env });
    const after = (JSON.parse(without.stdout) as TreeJson).candidates;
    expect(after.find((c) => c.name === 'acme/fooserve:1.0')?.reason ?? '').not.toContain('E042');
    expect(Object.values(await frameworks(dbPath, env))).not.toContain('fooserve');
    expect(after.some((c) => c.verdict === 'accepted')).toBe(false);
  });

  it('a rule file with a mistake is named with its line, left out, and the command still answers', async () => {
    writeFileSync(join(rulesDir, 'broken.yaml'), 'id: broken\nkind: framework\nlabel: Broken\ndescription: x\nnames: [broken]\nhealth:\n  paths: [no-slash]\n');
    const tree = await runRetrace(['tree', SESSION, '--db', dbPath], { env });
    expect(tree.code).toBe(0);
    expect(tree.stderr).toMatch(/broken\.yaml:7: health\.paths\.0: .*\(this rule file is left out\)/);
    const check = await runRetrace(['rules', 'check', join(rulesDir, 'broken.yaml')], { env });
    expect(check.code).toBe(2);
    rmSync(join(rulesDir, 'broken.yaml'));
  });
});

describe('a changed built-in rule', () => {
  it('re-derives stored trees on the next `tree`, with no version to bump', async () => {
    // An installed copy of retrace whose built-in rule files are then edited, as a maintainer would.
    const install = tempDir('retrace-install-');
    for (const part of ['bin', 'dist', 'rules', 'package.json']) cpSync(join(REPO_ROOT, part), join(install, part), { recursive: true });
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(install, 'node_modules'));
    // The maintainer ships fooserve as a built-in first (an unknown image is no serving stack).
    writeFileSync(join(install, 'rules', 'fooserve.yaml'), FOOSERVE);
    const bin = join(install, 'bin', 'retrace.js');
    const env = { XDG_CONFIG_HOME: join(install, 'no-user-rules') };
    const dbPath = tempDbPath(tempDir());
    await writeStory(dbPath);
    const run = async (): Promise<TreeJson> => {
      const { spawnSync } = await import('node:child_process');
      const child = spawnSync(process.execPath, [bin, 'tree', SESSION, '--db', dbPath, '--format', 'json'], { env: { ...process.env, ...env }, encoding: 'utf8' });
      expect(child.status, child.stderr).toBe(0);
      return JSON.parse(child.stdout) as TreeJson;
    };
    const before = (await run()).candidates.find((c) => c.name === 'acme/fooserve:1.0');
    expect(before?.verdict).toBe('rejected');
    const generic = join(install, 'rules', 'generic.yaml');
    writeFileSync(generic, readFileSync(generic, 'utf8').replace("label: '{1}: CUDA out of memory'", "label: '{1}: CUDA out of memory'").concat(`
  - id: widget-loader-said-no
    description: a line added by a maintainer
    effect: failure
    decides: [serve, probe]
    keywords: [loading acme]
    pattern: 'loading (acme/\\S+)'
    label: 'the loader gave up on {1}'
    priority: 1
    examples:
      match: ['loading acme/Widget-7B-Instruct']
`));
    const after = (await run()).candidates.find((c) => c.name === 'acme/fooserve:1.0');
    expect(after?.reason).toContain('the loader gave up on acme/Widget-7B-Instruct');
  });
});

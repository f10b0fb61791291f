// The test hosts are real: real sshd, real OpenSSH client, real host key checking. Only the
// GPU machinery behind them (docker, ray, vllm, hf) is the simulated Spark toolset.
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHosts, type TestHosts } from './harness.js';
import { runSsh, startSsh } from './openssh-client.js';

const SGLANG_SPARK_DIGEST = 'sha256:16dec654b13e4d10a2d9eefa0560e85fed0d1fc9536986e1dfb1bcb0077cbc7a';
const SERVE_IMAGE = 'hellohal2064/vllm-qwen3.5-gb10';
const HEALTH = 'curl -s -o /dev/null -w "%{http_code}" localhost:8000/health';

function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const poll = (): void => {
      if (condition()) resolve();
      else if (Date.now() > deadline) reject(new Error(`condition not met within ${timeoutMs} ms`));
      else setTimeout(poll, 20);
    };
    poll();
  });
}

describe('OpenSSH test hosts with the simulated Spark toolset', () => {
  let hosts: TestHosts;

  beforeAll(async () => {
    // Long enough that the first health check lands while the model loads, even on a loaded machine.
    hosts = await startTestHosts({ sessionEnv: { SPARK_SIM_LOAD_SECONDS: '6' } });
  });

  afterAll(async () => {
    await hosts?.stop();
  });

  it('lets the client log in to both hosts, checking their keys against the generated known_hosts', async () => {
    const head = await runSsh(hosts, 'head', 'echo login-ok; hostname');
    const worker = await runSsh(hosts, 'worker', 'echo login-ok; hostname');
    expect(head).toMatchObject({ code: 0, stdout: 'login-ok\nspark-1a32\n' });
    expect(worker).toMatchObject({ code: 0, stdout: 'login-ok\nspark-5be3\n' });
    expect(hosts.hosts.map((host) => host.address)).toEqual(['127.0.0.2', '127.0.0.3']);
  });

  it('accepts the hashed known_hosts file too', async () => {
    const hashed = await readFile(hosts.hashedKnownHostsPath, 'utf8');
    expect(hashed).not.toContain('127.0.0.');
    expect(hashed.trim().split('\n').every((line) => line.startsWith('|1|'))).toBe(true);
    const result = await runSsh(hosts, 'worker', 'echo hashed-ok', { knownHostsPath: hosts.hashedKnownHostsPath });
    expect(result).toMatchObject({ code: 0, stdout: 'hashed-ok\n' });
  });

  it('resolves the ~/.ssh/config-style aliases', () => {
    const viaAlias = (alias: string) =>
      spawnSync('ssh', ['-F', hosts.sshConfigPath, '-o', 'BatchMode=yes', alias, 'hostname'], { encoding: 'utf8' });
    expect(viaAlias('spark-head').stdout).toBe('spark-1a32\n');
    expect(viaAlias('spark-worker').stdout).toBe('spark-5be3\n');
  });

  it('gives each session its temp HOME, never the real one', async () => {
    const head = hosts.host('head');
    const result = await runSsh(hosts, 'head', 'printf "%s\\n" "$HOME" "$(pwd)" ~/.cache/huggingface');
    expect(result.stdout).toBe(`${head.homeDir}\n${head.homeDir}\n${head.homeDir}/.cache/huggingface\n`);
    expect(head.homeDir.startsWith('/root')).toBe(false);
  });

  it('pulls an image once, after which docker image inspect finds it', async () => {
    const before = await runSsh(hosts, 'head', 'docker image inspect lmsysorg/sglang:spark');
    expect(before.code).toBe(1);
    expect(before.stderr).toContain('Error: No such image: lmsysorg/sglang:spark');

    const pull = await runSsh(hosts, 'head', 'docker pull lmsysorg/sglang:spark 2>&1 | tail -3');
    expect(pull.stdout).toBe(
      `Digest: ${SGLANG_SPARK_DIGEST}\nStatus: Downloaded newer image for lmsysorg/sglang:spark\ndocker.io/lmsysorg/sglang:spark\n`,
    );
    const after = await runSsh(hosts, 'head', 'docker image inspect lmsysorg/sglang:spark --format "{{index .RepoDigests 0}}"');
    expect(after).toMatchObject({ code: 0, stdout: `lmsysorg/sglang@${SGLANG_SPARK_DIGEST}\n` });
    const again = await runSsh(hosts, 'head', 'docker pull lmsysorg/sglang:spark');
    expect(again.stdout).toContain('Status: Image is up to date for lmsysorg/sglang:spark');
    // The worker has its own images: nothing was pulled there.
    const worker = await runSsh(hosts, 'worker', 'docker image inspect lmsysorg/sglang:spark');
    expect(worker.code).toBe(1);
  });

  it('answers the recorded probe of scitrera/dgx-spark-sglang with its banner and versions', async () => {
    const probe = [
      'docker run --rm scitrera/dgx-spark-sglang:0.5.10rc0 python3 -c "',
      'import sglang; print(\\"SGLang:\\", sglang.__version__)',
      'import transformers; print(\\"Transformers:\\", transformers.__version__)',
      'try:',
      '    from sglang.srt.models.qwen3_5_moe import Qwen3_5MoeForCausalLM',
      '    print(\\"Qwen3.5 MoE: SUPPORTED\\")',
      'except ImportError as e:',
      '    print(f\\"Qwen3.5 MoE: NOT FOUND - {e}\\")',
      '" 2>&1',
    ].join('\n');
    const result = await runSsh(hosts, 'head', probe);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('NVIDIA Release 26.02 (build 269443100)');
    expect(result.stdout).toContain('Transformers: 4.57.6\n');
    expect(result.stdout).toContain('SGLang: 0.0.0\n');
    expect(result.stdout).toContain("Qwen3.5 MoE: NOT FOUND - No module named 'sglang.srt.models.qwen3_5_moe'");
  });

  it('joins a Ray head on one host and a worker on the other into one two-node cluster', async () => {
    const head = await runSsh(
      hosts,
      'head',
      `docker run -d --name vllm-qwen35 --gpus all --net=host --ipc=host ${SERVE_IMAGE} ray start --head --port 6379 --node-ip-address 192.168.200.1 --block 2>/dev/null`,
    );
    expect(head.code).toBe(0);
    expect(head.stdout).toMatch(/^[0-9a-f]{64}\n$/);
    const alone = await runSsh(hosts, 'head', 'docker exec vllm-qwen35 ray status');
    expect(alone.stdout.match(/^ 1 node_/gm)).toHaveLength(1);

    const worker = await runSsh(
      hosts,
      'worker',
      `docker run -d --name vllm-qwen35 --gpus all --net=host ${SERVE_IMAGE} ray start --address=192.168.200.1:6379 --node-ip-address 192.168.200.2 --block 2>/dev/null`,
    );
    expect(worker.code).toBe(0);
    const status = await runSsh(hosts, 'head', 'docker exec vllm-qwen35 ray status');
    expect(status.stdout.match(/^ 1 node_/gm)).toHaveLength(2);
    expect(status.stdout).toContain(' 0.0/2.0 GPU');
  });

  it('serves the model: the health check fails while it loads, then answers 200', async () => {
    const download = await runSsh(
      hosts,
      'head',
      'python3 -m pip install --user --break-system-packages -U huggingface_hub >/dev/null && ~/.local/bin/hf download Qwen/Qwen3.5-122B-A10B-FP8 2>/dev/null',
    );
    expect(download.stdout).toBe(
      `${hosts.host('head').homeDir}/.cache/huggingface/hub/models--Qwen--Qwen3.5-122B-A10B-FP8/snapshots/90cd75d4a3808a3f0e950bc914bcf53dd80580d0\n`,
    );
    const serve = await runSsh(
      hosts,
      'head',
      'docker exec -d vllm-qwen35 bash -c "vllm serve Qwen/Qwen3.5-122B-A10B-FP8 --port 8000 -tp 2 --distributed-executor-backend ray > /tmp/vllm-serve.log 2>&1"',
    );
    expect(serve.code).toBe(0);
    const loading = await runSsh(hosts, 'head', HEALTH);
    expect(loading).toMatchObject({ code: 7, stdout: '000' });

    // SPARK_SIM_LOAD_SECONDS=6 for these hosts: ask until it answers, as a user's loop would.
    let ready = loading;
    for (let attempt = 0; attempt < 40 && ready.stdout !== '200'; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      ready = await runSsh(hosts, 'head', HEALTH);
    }
    expect(ready).toMatchObject({ code: 0, stdout: '200' });
    // The log's writer runs beside the server and may be a moment behind it on a loaded machine.
    let log = await runSsh(hosts, 'head', 'docker exec vllm-qwen35 tail -n 1 /tmp/vllm-serve.log');
    for (let attempt = 0; attempt < 20 && !log.stdout.includes('Application startup complete.'); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      log = await runSsh(hosts, 'head', 'docker exec vllm-qwen35 tail -n 1 /tmp/vllm-serve.log');
    }
    expect(log.stdout).toContain('Application startup complete.');
  });

  it('drops a running command when its sshd session processes are killed', async () => {
    const { child, result } = startSsh(hosts, 'head', 'echo started; sleep 30; echo finished');
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(() => output.includes('started'), 5_000);

    expect(hosts.killSessions('head')).toBeGreaterThan(0);
    const dropped = await result;
    expect(dropped.code).toBe(255);
    expect(dropped.stdout).not.toContain('finished');
    expect(dropped.durationMs).toBeLessThan(10_000);
  });

  it('freezes a session like a blackholed peer, and thaws it', async () => {
    const { child, result } = startSsh(hosts, 'worker', 'for i in 1 2 3 4 5; do echo "tick $i"; sleep 0.2; done');
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(() => output.includes('tick 1'), 5_000);

    expect(hosts.freeze('worker')).toBeGreaterThan(0);
    const seenWhenFrozen = output;
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // the loop ends on the host meanwhile
    expect(output).toBe(seenWhenFrozen);
    expect(output).not.toContain('tick 5');

    expect(hosts.thaw('worker')).toBeGreaterThan(0);
    const finished = await result;
    expect(finished.code).toBe(0);
    expect(finished.stdout).toContain('tick 5');
  });

  it('refuses the host after rotateHostKey, naming the new key; the other host is unaffected', async () => {
    const oldFingerprint = hosts.host('head').hostKeyFingerprint;
    const newFingerprint = await hosts.rotateHostKey('head');
    expect(newFingerprint).toMatch(/^SHA256:/);
    expect(newFingerprint).not.toBe(oldFingerprint);
    expect(hosts.host('head').hostKeyFingerprint).toBe(newFingerprint);

    const refused = await runSsh(hosts, 'head', 'echo should-not-run');
    expect(refused.code).toBe(255);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('REMOTE HOST IDENTIFICATION HAS CHANGED');
    expect(refused.stderr).toContain(newFingerprint);
    const hashedRefused = await runSsh(hosts, 'head', 'true', { knownHostsPath: hosts.hashedKnownHostsPath });
    expect(hashedRefused.code).toBe(255);

    const worker = await runSsh(hosts, 'worker', 'echo still-fine');
    expect(worker).toMatchObject({ code: 0, stdout: 'still-fine\n' });
  });
});

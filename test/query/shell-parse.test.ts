import { describe, expect, it } from 'vitest';
import { flattenCommands, parseCommandLine, type CommandRow } from '../../src/query/shell/index.js';

/** The commands of a line, as rows, with the fields most tests look at. */
function rows(line: string): CommandRow[] {
  return flattenCommands(parseCommandLine(line));
}

function programs(line: string): string[] {
  return rows(line).map((r) => r.program);
}

describe('shell parsing: lists, pipelines, groups', () => {
  it('splits && || ; and records the connector before each command', () => {
    const found = rows('make && make install || echo failed; ls');
    expect(found.map((r) => [r.program, r.connector])).toEqual([
      ['make', null],
      ['make', '&&'],
      ['echo', '||'],
      ['ls', ';'],
    ]);
    expect(found[1]?.argv).toEqual(['make', 'install']);
  });

  it('numbers pipeline members and keeps redirections out of argv', () => {
    const found = rows('docker pull a/b:c 2>&1 | tail -3 > /tmp/out');
    expect(found.map((r) => [r.program, r.pipelinePosition])).toEqual([['docker', 0], ['tail', 1]]);
    expect(found[0]?.argv).toEqual(['docker', 'pull', 'a/b:c']);
    expect(found[1]?.argv).toEqual(['tail', '-3']);
  });

  it('reads subshells and brace groups', () => {
    const found = rows('(cd /srv && make) || { echo no; exit 1; }');
    expect(found.map((r) => [r.program, r.via])).toEqual([
      ['cd', 'subshell'],
      ['make', 'subshell'],
      ['echo', 'group'],
      ['exit', 'group'],
    ]);
  });

  it('honours quoting: one word per quoted string, variables kept literal', () => {
    const [echo] = rows(`echo 'a b' "c $HOME d" e\\ f $TAG`);
    expect(echo?.argv).toEqual(['echo', 'a b', 'c $HOME d', 'e f', '$TAG']);
  });

  it('marks commands started with & as background', () => {
    const found = rows('nohup server --port 1 > log 2>&1 & echo started');
    expect(found[0]).toMatchObject({ program: 'server', background: true });
    expect(found[1]).toMatchObject({ program: 'echo', background: false, connector: '&' });
  });

  it('splits lines, drops comments, keeps quoted newlines', () => {
    expect(programs('ls\n# a comment with an apostrophe: don\'t\nnvidia-smi\necho "a\nb"')).toEqual(['ls', 'nvidia-smi', 'echo']);
    expect(rows('echo "a\nb"')[0]?.argv).toEqual(['echo', 'a\nb']);
  });

  it('joins backslash-newline continuations', () => {
    expect(rows('docker run --rm \\\n  img \\\n  true')[0]?.argv).toEqual(['docker', 'run', '--rm', 'img', 'true']);
  });

  it('parses $( … ) and backtick substitutions as commands of their own (but not inside single quotes)', () => {
    const found = rows(`code=$(curl -s localhost:8000/health); echo "$(date)" '$(not run)' \`uname -r\``);
    expect(found.map((r) => [r.program, r.via])).toEqual([
      ['', 'shell'],
      ['curl', 'substitution'],
      ['echo', 'shell'],
      ['date', 'substitution'],
      ['uname', 'substitution'],
    ]);
  });

  it('reads through loops and conditions to the commands inside', () => {
    expect(programs('for i in $(seq 1 3); do curl -s localhost:$i; sleep 1; done')).toEqual(['seq', 'curl', 'sleep']);
    expect(programs('until [ "$(curl -s -o /dev/null -w "%{http_code}" localhost:30000/health)" = 200 ]; do sleep 10; done; echo ok')).toEqual([
      '[', 'curl', 'sleep', 'echo',
    ]);
    expect(programs('if nvidia-smi; then echo gpu; else echo none; fi')).toEqual(['nvidia-smi', 'echo', 'echo']);
  });
});

describe('shell parsing: wrappers', () => {
  it('lifts VAR=value prefixes into env', () => {
    const [hf] = rows('HF_TOKEN=x HF_HUB_ENABLE_HF_TRANSFER=1 hf download Qwen/Qwen3-8B');
    expect(hf).toMatchObject({ program: 'hf', env: { HF_TOKEN: 'x', HF_HUB_ENABLE_HF_TRANSFER: '1' } });
    expect(hf?.argv).toEqual(['hf', 'download', 'Qwen/Qwen3-8B']);
  });

  it('peels sudo with its options, env, time, nohup, timeout', () => {
    const [stop] = rows('sudo -E -u root systemctl stop vllm');
    expect(stop).toMatchObject({ program: 'systemctl', sudo: true, argv: ['systemctl', 'stop', 'vllm'] });
    expect(rows('timeout 900 docker run --rm img true')[0]?.program).toBe('docker');
    expect(rows('env -u X A=1 time -p nohup python3 x.py')[0]).toMatchObject({ program: 'python3', env: { A: '1' } });
  });

  it('unwraps bash -lc / sh -c scripts', () => {
    const found = rows(`bash -lc "ssh ubuntu@10.0.0.2 'pip show vllm'"`);
    expect(found.map((r) => [r.program, r.via, r.depth])).toEqual([
      ['bash', 'shell', 0],
      ['ssh', 'sh -c', 1],
      ['pip', 'ssh', 2],
    ]);
    expect(rows("sh -c 'ls; df -h'").map((r) => r.program)).toEqual(['sh', 'ls', 'df']);
  });
});

describe('shell parsing: ssh', () => {
  it('records user and host and parses the remote command', () => {
    const found = rows(`ssh aurora@10.1.230.180 'docker pull lmsysorg/sglang:spark 2>&1 | tail -3' 2>&1`);
    expect(found[1]).toMatchObject({ program: 'docker', via: 'ssh', host: '10.1.230.180', user: 'aurora', argv: ['docker', 'pull', 'lmsysorg/sglang:spark'] });
    expect(found[2]).toMatchObject({ program: 'tail', host: '10.1.230.180', pipelinePosition: 1 });
  });

  it('skips options and their values (-p, -i, -o, -J) and reads -l as the user', () => {
    const [ssh, remote] = rows('ssh -p 2222 -i ~/.ssh/id -o StrictHostKeyChecking=no -J bastion -l ops node1 nvidia-smi -L');
    expect(ssh).toMatchObject({ host: 'node1', user: 'ops', port: 2222 });
    expect(remote).toMatchObject({ program: 'nvidia-smi', host: 'node1', argv: ['nvidia-smi', '-L'] });
  });

  it('joins unquoted remote words as ssh does', () => {
    expect(rows('ssh host docker ps -a')[1]?.argv).toEqual(['docker', 'ps', '-a']);
  });

  it('reads a here-document fed to `ssh host bash -s`', () => {
    const found = rows("ssh root@h bash -s <<'EOF'\ndocker ps\nnvidia-smi\nEOF\necho after");
    expect(found.map((r) => [r.program, r.via, r.host])).toEqual([
      ['ssh', 'shell', 'h'],
      ['docker', 'heredoc', 'h'],
      ['nvidia-smi', 'heredoc', 'h'],
      ['echo', 'shell', null],
    ]);
  });
});

describe('shell parsing: containers', () => {
  it('docker run: options with values are skipped, the image and its command found', () => {
    const line = 'docker run -d --name vllm --gpus all --net=host --ipc=host -v ~/.cache/huggingface:/root/.cache/huggingface -e NCCL_IB_DISABLE=0 -p 8000:8000 --shm-size 32g hellohal2064/vllm-qwen3.5-gb10 ray start --head --port 6379';
    const [run] = parseCommandLine(line);
    expect(run?.dockerRun).toMatchObject({ image: 'hellohal2064/vllm-qwen3.5-gb10', detached: true, remove: false, name: 'vllm', ports: [8000], env: { NCCL_IB_DISABLE: '0' } });
    expect(run?.dockerRun?.command).toEqual(['ray', 'start', '--head', '--port', '6379']);
    const inner = flattenCommands([run!])[1];
    expect(inner).toMatchObject({ program: 'ray', via: 'docker run', image: 'hellohal2064/vllm-qwen3.5-gb10', container: 'vllm' });
  });

  it('docker run: short option clusters and attached values (-it, -p8000:80, -eA=1)', () => {
    const [run] = parseCommandLine('podman run -it --rm -p8000:80 -eA=1 img:1 bash');
    expect(run?.dockerRun).toMatchObject({ image: 'img:1', remove: true, detached: false, ports: [8000], env: { A: '1' }, command: ['bash'] });
  });

  it('docker run: a python -c body is kept for the probe', () => {
    const found = rows(`docker run --rm scitrera/dgx-spark-sglang:0.5.10rc0 python3 -c "import sglang; print(sglang.__version__)"`);
    expect(found[1]).toMatchObject({ program: 'python3', image: 'scitrera/dgx-spark-sglang:0.5.10rc0', pythonBody: 'import sglang; print(sglang.__version__)' });
  });

  it('docker exec: the container and the command it runs (through bash -c)', () => {
    const found = rows(`docker exec -d -e A=1 -w /srv vllm-qwen35 bash -c "vllm serve Qwen/Qwen3.5 --port 8000 > /tmp/log 2>&1"`);
    expect(found.map((r) => [r.program, r.via, r.container])).toEqual([
      ['docker', 'shell', null],
      ['bash', 'docker exec', 'vllm-qwen35'],
      ['vllm', 'sh -c', 'vllm-qwen35'],
    ]);
  });

  it('kubectl exec POD -- CMD', () => {
    const found = rows('kubectl exec -n llm vllm-0 -- nvidia-smi');
    expect(found[1]).toMatchObject({ program: 'nvidia-smi', via: 'kubectl exec', container: 'vllm-0' });
  });

  it('python - <<EOF: the here-document is the body', () => {
    const [python] = rows('python3 - <<EOF\nimport torch\nprint(torch.__version__)\nEOF');
    expect(python?.pythonBody).toBe('import torch\nprint(torch.__version__)');
  });
});

describe('shell parsing never throws', () => {
  it('reads unbalanced quotes and odd input as something', () => {
    for (const line of ["echo 'unterminated", 'a | | b', ')(', '&&', '$(', 'docker run', 'ssh', '`', '\u0000\u0001']) {
      expect(() => rows(line)).not.toThrow();
    }
  });
});

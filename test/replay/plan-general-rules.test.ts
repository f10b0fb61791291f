import { beforeAll, describe, expect, it } from 'vitest';
import type { Extraction } from '../../src/replay/plan/extract.js';
import type { SyntheticSession } from '../query/helpers/synthetic-session.js';
import { tempDir } from '../helpers/temp.js';
import { syntheticPlan } from './helpers/synthetic-plans.js';

/**
 * General rules of what a plan keeps, each told by a small session of its own (none is a story of
 * the eval corpus): containers a launcher script made and the session removed again, a start and
 * the check chained after it, a restart whose container earlier steps used, a folder a later bind
 * mount makes itself, and the look-ups and tidying of a desktop (AppleScript, a test run).
 */
const ID = 'deadbeef'.repeat(8);

const LAUNCHER: SyntheticSession = {
  id: 'syn-launcher-given-up',
  title: 'A Ray cluster from a launcher script, given up for one node',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-72B-Instruct with vllm on n1 and n2 (ops@10.9.0.1, ops@10.9.0.2), use scripts/start_node.sh.' },
    { role: 'assistant', text: 'Copying the launcher.', calls: [{ command: 'scp scripts/start_node.sh ops@10.9.0.1:~/', output: '' }] },
    { role: 'assistant', text: 'Starting the head.', calls: [{ command: "ssh ops@10.9.0.1 'bash ~/start_node.sh vllm/vllm-openai:v0.8.5 --head'", output: `${ID}\n` }] },
    { role: 'assistant', text: 'Cluster state.', calls: [{ command: "ssh ops@10.9.0.1 'docker exec node-head ray status'", output: '1 node(s)\n0.0/8.0 GPU' }] },
    { role: 'assistant', text: 'The second node cannot join; one node it is.', calls: [{ command: "ssh ops@10.9.0.1 'docker rm -f node-head'", output: 'node-head\n' }] },
    {
      role: 'assistant', text: 'Serving on one node.',
      calls: [{ command: "ssh ops@10.9.0.1 'docker run -d --name qwen72 --gpus all -p 8000:8000 vllm/vllm-openai:v0.8.5 --model Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 8'", output: `${'a'.repeat(64)}\n` }],
    },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh ops@10.9.0.1 'sleep 200; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8000/health'", output: '200\n' }] },
    { role: 'assistant', text: 'Serving on n1:8000.' },
  ],
};

const CHAINED_CHECK: SyntheticSession = {
  id: 'syn-start-then-check',
  title: 'A user service started and checked in one line, then tidying',
  steps: [
    { role: 'user', text: 'Run llama.cpp llama-server as a user service on this box (port 8080), replacing ollama.' },
    {
      role: 'assistant', text: 'Starting it and checking.',
      calls: [{ command: 'systemctl --user enable --now llama-server && sleep 20 && systemctl --user is-active llama-server && curl -s -o /dev/null -w "health %{http_code}\\n" localhost:8080/health', output: 'active\nhealth 200\n' }],
    },
    {
      role: 'assistant', text: 'Tidying: quit the old app and list what starts at login.',
      calls: [{ command: 'osascript -e \'tell application "Ollama" to quit\'; osascript -e \'tell application "System Events" to get the name of every login item\'', output: 'Ollama\n' }],
    },
    {
      role: 'assistant', text: 'And it no longer starts at login.',
      calls: [{ command: 'osascript -e \'tell application "System Events" to delete login item "Ollama"\'', output: '' }],
    },
    { role: 'assistant', text: 'Running the client tests.', calls: [{ command: 'python3 -m pytest -q tests/test_client.py', output: '3 passed in 1.2s\n' }] },
    { role: 'assistant', text: 'llama-server answers on 8080.' },
  ],
};

const RESTART_AFTER_USE: SyntheticSession = {
  id: 'syn-compose-restart-after-pull',
  title: 'A compose stack brought up, a model pulled into it, then brought up again with a new setting',
  steps: [
    { role: 'user', text: 'Bring up the ollama stack in stacks/ollama on this box and pull qwen2.5:14b into it.' },
    { role: 'assistant', text: 'Up.', calls: [{ command: 'docker compose -f stacks/ollama/compose.yaml up -d', output: 'Container ollama  Started\n' }] },
    { role: 'assistant', text: 'Pulling the model.', calls: [{ command: 'docker compose -f stacks/ollama/compose.yaml exec -T ollama ollama pull qwen2.5:14b', output: 'success\n' }] },
    { role: 'assistant', text: 'Keep-alive changed; up again.', calls: [{ command: 'docker compose -f stacks/ollama/compose.yaml up -d', output: 'Container ollama  Recreated\n' }] },
    { role: 'assistant', text: 'Check.', calls: [{ command: 'curl -s localhost:11434/api/generate -d \'{"model":"qwen2.5:14b","prompt":"hi","stream":false}\'', output: '{"response":"hi"}' }] },
    { role: 'assistant', text: 'Up with the model.' },
  ],
};

const BIND_MOUNT_FOLDER: SyntheticSession = {
  id: 'syn-folder-for-bind-mount',
  title: 'A crashed container removed and a cache folder made before the next run',
  steps: [
    { role: 'user', text: 'Serve meta-llama/Llama-3.1-8B-Instruct with sglang on g5 (ops@10.9.1.5), port 30000.' },
    {
      role: 'assistant', text: 'First try.',
      calls: [{ command: "ssh ops@10.9.1.5 'docker run -d --name sgl --gpus all -p 30000:30000 lmsysorg/sglang:v0.4.3 python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --port 30000'", output: `${'b'.repeat(64)}\n` }],
    },
    { role: 'assistant', text: 'It needs a compile cache; removing it and making one.', calls: [{ command: "ssh ops@10.9.1.5 'docker rm sgl >/dev/null; df -h / | tail -1; mkdir -p /data/cache'", output: '/dev/sda1 1.8T 1.1T 700G 62% /\n' }] },
    {
      role: 'assistant', text: 'Second try.',
      calls: [{ command: "ssh ops@10.9.1.5 'docker run -d --name sgl --gpus all -p 30000:30000 -v /data/cache:/cache -e TORCHINDUCTOR_CACHE_DIR=/cache lmsysorg/sglang:v0.4.3 python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --port 30000'", output: `${'c'.repeat(64)}\n` }],
    },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh ops@10.9.1.5 'sleep 120; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:30000/health'", output: '200\n' }] },
    { role: 'assistant', text: 'Serving on g5:30000.' },
  ],
};

const TWO_RUNS_OF_ONE_IMAGE: SyntheticSession = {
  id: 'syn-two-runs-one-image',
  title: 'A checkpoint converted and an engine built, each in a throwaway container of one image',
  steps: [
    { role: 'user', text: 'Build a TensorRT-LLM engine for Qwen/Qwen2.5-7B-Instruct on this box and serve it on :8000.' },
    {
      role: 'assistant', text: 'Converting (wrong examples path first).',
      calls: [{ command: 'docker run --rm --gpus all -v /data:/data nvcr.io/nvidia/tensorrt-llm/release:0.18.2 python3 /app/examples/qwen/convert_checkpoint.py --model_dir /data/qwen --output_dir /data/ckpt', output: "python3: can't open file '/app/examples/qwen/convert_checkpoint.py': [Errno 2] No such file or directory", exit: 2 }],
    },
    {
      role: 'assistant', text: 'The examples moved.',
      calls: [{ command: 'docker run --rm --gpus all -v /data:/data nvcr.io/nvidia/tensorrt-llm/release:0.18.2 python3 /app/examples/models/core/qwen/convert_checkpoint.py --model_dir /data/qwen --output_dir /data/ckpt', output: 'Total time of converting checkpoints: 00:01:10' }],
    },
    {
      role: 'assistant', text: 'Building the engine.',
      calls: [{ command: 'docker run --rm --gpus all -v /data:/data nvcr.io/nvidia/tensorrt-llm/release:0.18.2 trtllm-build --checkpoint_dir /data/ckpt --output_dir /data/engine', output: 'Engine built' }],
    },
    {
      role: 'assistant', text: 'Serving.',
      calls: [{ command: 'docker run -d --name trt --gpus all -p 8000:8000 -v /data:/data nvcr.io/nvidia/tensorrt-llm/release:0.18.2 trtllm-serve /data/engine --port 8000', output: `${'d'.repeat(64)}\n` }],
    },
    { role: 'assistant', text: 'Health.', calls: [{ command: 'sleep 60; curl -s -o /dev/null -w "health %{http_code}\\n" localhost:8000/health', output: 'health 200\n' }] },
    { role: 'assistant', text: 'Serving on :8000.' },
  ],
};

const CONTAINER_LIKE_A_FOLDER: SyntheticSession = {
  id: 'syn-container-like-a-folder',
  title: 'A container named like the folder its model repository is mounted from',
  steps: [
    { role: 'user', text: 'Serve the Triton model repository in /srv/triton on inf1 (sofia@10.60.2.14), port 8000.' },
    {
      role: 'assistant', text: 'Starting Triton.',
      calls: [{ command: "ssh sofia@10.60.2.14 'docker run -d --name triton --gpus all -p 8000:8000 -v /srv/triton/model_repository:/models nvcr.io/nvidia/tritonserver:25.01-vllm-python-py3 tritonserver --model-repository=/models'", output: `${'b'.repeat(64)}\n` }],
    },
    { role: 'assistant', text: 'Ready?', calls: [{ command: "ssh sofia@10.60.2.14 'sleep 90; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8000/v2/health/ready'", output: '200\n' }] },
    { role: 'assistant', text: 'Triton is ready.' },
  ],
};

const dir = tempDir('retrace-plan-rules-');
const plans = new Map<string, Extraction>();

beforeAll(async () => {
  for (const session of [LAUNCHER, CHAINED_CHECK, RESTART_AFTER_USE, BIND_MOUNT_FOLDER, TWO_RUNS_OF_ONE_IMAGE, CONTAINER_LIKE_A_FOLDER]) {
    plans.set(session.id, await syntheticPlan(dir, session));
  }
});

function planOf(id: string): Extraction {
  const extraction = plans.get(id);
  if (!extraction) throw new Error(`no plan for ${id}`);
  return extraction;
}

const why = (extraction: Extraction, pattern: RegExp): string | undefined => extraction.decisions.find((d) => !d.kept && pattern.test(d.why))?.why;

describe('what a plan of a session keeps, by general rules', () => {
  it('drops the containers a launcher script made and the session removed, and the upload of that script', () => {
    const extraction = planOf(LAUNCHER.id);
    const commands = extraction.plan.steps.map((step) => step.command);
    expect(commands.some((c) => c.includes('start_node.sh'))).toBe(false);
    expect(commands.some((c) => /docker rm -f node-head/.test(c))).toBe(false);
    expect(extraction.plan.steps.map((step) => step.id)).toEqual(['remove-stopped-qwen72', 'serve-model', 'check-health']);
    expect(why(extraction, /^started, then stopped again/)).toBeDefined();
    expect(why(extraction, /^copies start_node\.sh for steps that were all dropped/)).toBeDefined();
  });

  it('splits a check chained after a start into its own polled check step, and drops tidying after it and look-ups', () => {
    const extraction = planOf(CHAINED_CHECK.id);
    const steps = extraction.plan.steps;
    expect(steps.map((s) => s.command)).toEqual([
      'systemctl --user enable --now llama-server',
      'sleep 20 && systemctl --user is-active llama-server && curl -s -o /dev/null -w "health %{http_code}\\n" localhost:8080/health',
    ]);
    expect(steps[1]?.id).toBe('check-health');
    expect(steps[1]?.poll).not.toBeNull();
    expect(steps[0]?.independent_of).toEqual([]);
    expect(why(extraction, /^stops a process the session did not start \(Ollama\)/)).toBeDefined();
    expect(why(extraction, /^clean-up after the deployment was up/)).toBeDefined();
    expect(why(extraction, /^a look-up/)).toBeDefined();
  });

  it('runs a restart where the first start was when steps in between used the running container', () => {
    const extraction = planOf(RESTART_AFTER_USE.id);
    const commands = extraction.plan.steps.map((step) => step.command);
    const up = commands.findIndex((c) => /compose\.yaml up -d/.test(c));
    const pull = commands.findIndex((c) => /ollama pull qwen2\.5:14b/.test(c));
    expect(up).toBeGreaterThanOrEqual(0);
    expect(pull).toBeGreaterThan(up);
    expect(commands.filter((c) => /compose\.yaml up -d/.test(c))).toHaveLength(1);
    expect(why(extraction, /runs here instead/)).toBeDefined();
  });

  it('drops a step that only removes an earlier attempt and makes a folder a later bind mount makes itself', () => {
    const extraction = planOf(BIND_MOUNT_FOLDER.id);
    const commands = extraction.plan.steps.map((step) => step.command);
    expect(commands.some((c) => c.includes('mkdir -p /data/cache'))).toBe(false);
    expect(why(extraction, /^nothing left to do: clean-up of an earlier attempt, and a folder a later step makes itself: \/data\/cache/)).toBeDefined();
    expect(commands.some((c) => c.includes('-v /data/cache:/cache'))).toBe(true);
  });

  it('tells two throwaway containers of one image apart by what they run: the conversion is not superseded by the build', () => {
    const extraction = planOf(TWO_RUNS_OF_ONE_IMAGE.id);
    const commands = extraction.plan.steps.map((step) => step.command);
    expect(commands.filter((c) => c.includes('convert_checkpoint.py'))).toEqual([expect.stringContaining('/app/examples/models/core/qwen/convert_checkpoint.py')]);
    expect(commands.some((c) => c.includes('trtllm-build'))).toBe(true);
    expect(why(extraction, /^failed \(exit 2\); the same action worked later/)).toBeDefined();
  });

  it('makes no variable of a container named like a folder the commands use: it would move the folder too', () => {
    const extraction = planOf(CONTAINER_LIKE_A_FOLDER.id);
    const serve = extraction.plan.steps.find((step) => step.command.includes('tritonserver'));
    expect(serve?.command).toContain('-v /srv/triton/model_repository:');
    expect(Object.keys(extraction.plan.variables)).not.toContain('container');
  });
});

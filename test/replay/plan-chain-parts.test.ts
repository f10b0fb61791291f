import { beforeAll, describe, expect, it } from 'vitest';
import type { Extraction } from '../../src/replay/plan/extract.js';
import type { SyntheticSession } from '../query/helpers/synthetic-session.js';
import { tempDir } from '../helpers/temp.js';
import { syntheticPlan } from './helpers/synthetic-plans.js';

/**
 * A chained call whose parts have different purposes is one step per purpose; parts that only
 * make sense with the next (a folder made and entered, a tool installed) stay with it. Told by a
 * small session of its own, none a story of the eval corpus.
 */
const CHAINS: SyntheticSession = {
  id: 'syn-chains-of-purposes',
  title: 'A source build committed to an image, a model fetched in the same line, then served',
  steps: [
    { role: 'user', text: 'Build tinyllm from source on this box and serve org/tiny-model with it on :8000.' },
    {
      role: 'assistant', text: 'Fetching and building in one go.',
      calls: [{ command: 'mkdir -p ~/src && cd ~/src && git clone -q https://github.com/org/tinyllm.git && cd tinyllm && git log --oneline -1 && cmake -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j 8 && mkdir -p weights && hf download org/tiny-model --local-dir weights', output: 'abc123 release 1.2\n-- Build files have been written\n[100%] Built target tinyllm\n/home/ops/src/tinyllm/weights\n' }],
    },
    { role: 'assistant', text: 'A builder container.', calls: [{ command: 'docker run -d --name tb -v ~/src:/src -v ~/.cache/huggingface:/root/.cache/huggingface nvcr.io/nvidia/pytorch:25.01-py3 sleep infinity', output: `${'e'.repeat(64)}\n` }] },
    {
      role: 'assistant', text: 'Installing into it, committing the image and fetching the weights.',
      calls: [{ command: 'docker exec tb pip install -e /src/tinyllm && docker commit tb tinyllm:local && docker exec tb hf download org/tiny-model 2>&1 | tail -1', output: 'Successfully installed tinyllm\nsha256:1234\n/root/.cache/huggingface/hub/models--org--tiny-model\n' }],
    },
    {
      role: 'assistant', text: 'Trying the same chain on the second model fails.',
      calls: [{ command: 'docker commit tb tinyllm:local2 && docker exec tb hf download org/other-model', output: 'sha256:5678\n401 Client Error: Unauthorized', exit: 1 }],
    },
    { role: 'assistant', text: 'Serving.', calls: [{ command: 'docker rm -f tb && docker run -d --name tiny -p 8000:8000 -v ~/.cache/huggingface:/root/.cache/huggingface tinyllm:local tinyllm serve org/tiny-model --port 8000', output: `tb\n${'f'.repeat(64)}\n` }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: 'sleep 30; curl -s -o /dev/null -w "%{http_code}\\n" localhost:8000/health', output: '200\n' }] },
    { role: 'assistant', text: 'Serving on :8000.' },
  ],
};

/** A variable set in the chain is used by its later parts: split, the start would run without it. */
const VARIABLE_CHAIN: SyntheticSession = {
  id: 'syn-chain-with-variable',
  title: 'A model fetched and served in one line through a shell variable',
  steps: [
    { role: 'user', text: 'Serve org/tiny-model with vllm/vllm-openai:v0.8.5 on :8000.' },
    { role: 'assistant', text: 'Pulling.', calls: [{ command: 'docker pull vllm/vllm-openai:v0.8.5', output: 'Status: Downloaded newer image for vllm/vllm-openai:v0.8.5\n' }] },
    {
      role: 'assistant', text: 'Fetching and serving in one line.',
      calls: [{ command: 'M=org/tiny-model && hf download $M && docker run -d --name tiny -p 8000:8000 vllm/vllm-openai:v0.8.5 --model $M', output: `/root/.cache/huggingface/hub/models--org--tiny-model\n${'a'.repeat(64)}\n` }],
    },
    { role: 'assistant', text: 'Health.', calls: [{ command: 'sleep 30; curl -s -o /dev/null -w "%{http_code}\\n" localhost:8000/health', output: '200\n' }] },
    { role: 'assistant', text: 'Serving on :8000.' },
  ],
};

const dir = tempDir('retrace-plan-chains-');
let extraction: Extraction;
let withVariable: Extraction;

beforeAll(async () => {
  const plans: Extraction[] = [];
  for (const session of [CHAINS, VARIABLE_CHAIN]) {
    plans.push(await syntheticPlan(dir, session));
  }
  [extraction, withVariable] = plans as [Extraction, Extraction];
});

describe('a chained call, one step per purpose', () => {
  it('keeps a clone with the build of what it cloned, and splits the download chained after them, in the folder the cds left', () => {
    const commands = extraction.plan.steps.map((step) => step.command);
    expect(commands).toContain('mkdir -p ~/src && cd ~/src && git clone -q https://github.com/org/tinyllm.git && cd tinyllm && git log --oneline -1 && cmake -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j 8');
    const download = extraction.plan.steps.find((step) => step.command.startsWith('mkdir -p weights && hf download'));
    // It starts where the build's `cd`s left the shell.
    const workdir = (download?.workdir ?? '').replace(/\{\{ (\w+) \}\}/, (_, name: string) => {
      const variable = extraction.plan.variables[name];
      return variable && 'value' in variable ? variable.value : '';
    });
    expect(workdir).toBe('/home/ops/src/tinyllm');
  });

  it('splits an image commit from a model download chained after it; the install before the commit stays with it', () => {
    const commands = extraction.plan.steps.map((step) => step.command);
    expect(commands).toContain('docker exec {{ container }} pip install -e /src/tinyllm && docker commit {{ container }} tinyllm:local');
    expect(commands).toContain('docker exec {{ container }} hf download {{ model }} 2>&1 | tail -1');
    const ids = extraction.plan.steps.map((step) => step.id);
    const build = ids.findIndex((id) => id.startsWith('build'));
    expect(build).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf('download-model')).toBeGreaterThan(build);
  });

  it('keeps a failed chain whole (which part failed cannot be told) and drops it', () => {
    const commands = extraction.plan.steps.map((step) => step.command);
    expect(commands.some((c) => c.includes('tinyllm:local2'))).toBe(false);
    expect(extraction.decisions.some((d) => !d.kept && /^failed \(exit 1\)/.test(d.why))).toBe(true);
  });

  it('keeps a chain whole when a part sets a variable later parts use', () => {
    const start = withVariable.plan.steps.find((step) => step.command.includes('docker run'));
    expect(start?.command).toMatch(/^M=org\/tiny-model && hf download .* && docker run /);
  });
});

import { describe, expect, it } from 'vitest';
import type { SyntheticSession } from './helpers/synthetic-session.js';
import { syntheticTrees } from './helpers/synthetic-trees.js';

/**
 * The ninth round's rules, each on a session of its own:
 * - a framework run from an environment the session read first (`pip list`) is named by the version read there;
 * - a reason names each failure before a second line of one: the error after a login still shows;
 * - a checkpoint proposed and then served was tried, whatever its approach is called;
 * - a flag changed after a run judged too slow is the fix tried, an approach of its own.
 */
const OLD_VENV: SyntheticSession = {
  id: 'syn-old-venv',
  title: 'SGLang from an old venv: gated, then an unknown architecture',
  steps: [
    { role: 'user', text: 'Run google/gemma-3-27b-it with sglang on this box, the venv at ~/venvs/sg is already set up.' },
    { role: 'assistant', text: 'What is in the venv?', calls: [{ command: '~/venvs/sg/bin/pip list 2>/dev/null | grep -iE "^(sglang|transformers) "', output: 'sglang               0.4.3.post2\ntransformers         4.48.3\n' }] },
    {
      role: 'assistant', text: 'Launching.',
      calls: [{
        command: '~/venvs/sg/bin/python -m sglang.launch_server --model-path google/gemma-3-27b-it --port 30000',
        output: [
          'requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://huggingface.co/google/gemma-3-27b-it/resolve/main/config.json',
          'huggingface_hub.errors.GatedRepoError: 401 Client Error. (Request ID: Root=1-abc)',
          'Cannot access gated repo for url https://huggingface.co/google/gemma-3-27b-it/resolve/main/config.json.',
          'Access to model google/gemma-3-27b-it is restricted. You must have access to it and be authenticated to access it. Please log in.',
        ].join('\n'),
        exit: 1,
      }],
    },
    { role: 'assistant', text: 'Gated: logging in with the token on the box.', calls: [{ command: '~/venvs/sg/bin/huggingface-cli login --token "$(cat ~/.hf_token)"', output: 'Login successful.' }] },
    {
      role: 'assistant', text: 'Launching again.',
      calls: [{
        command: '~/venvs/sg/bin/python -m sglang.launch_server --model-path google/gemma-3-27b-it --port 30000',
        output: 'ValueError: The checkpoint you are trying to load has model type `gemma3` but Transformers does not recognize this architecture.',
        exit: 1,
      }],
    },
    { role: 'assistant', text: 'This venv is too old for Gemma 3; I stop here until you say whether I may upgrade it.' },
  ],
};

const AWQ_AFTER_OOM: SyntheticSession = {
  id: 'syn-awq-after-oom',
  title: 'bf16 over four GPUs runs out of memory; the AWQ checkpoint over two serves',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-72B-Instruct with vLLM on gpu1 (4x L40S), port 8000.' },
    {
      role: 'assistant', text: 'Starting bf16 with tensor parallel 4.',
      calls: [{ command: "ssh ops@gpu1 'docker run --rm --gpus all -p 8000:8000 vllm/vllm-openai:v0.8.5 --model Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 4'", output: 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.02 GiB. GPU 2 has a total capacity of 44.42 GiB of which 312.00 MiB is free.', exit: 1 }],
    },
    { role: 'assistant', text: 'Two of the GPUs are busy with another job. We could try `Qwen/Qwen2.5-72B-Instruct-AWQ` with TP=2 on the two free ones.' },
    {
      role: 'assistant', text: 'Starting the AWQ checkpoint on GPUs 0 and 1.',
      calls: [{ command: "ssh ops@gpu1 'docker run -d --name qwen --gpus \"device=0,1\" -p 8000:8000 vllm/vllm-openai:v0.8.5 --model Qwen/Qwen2.5-72B-Instruct-AWQ --tensor-parallel-size 2'", output: 'c0ffee' }],
    },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh ops@gpu1 'sleep 120; curl -s -o /dev/null -w \"%{http_code}\" localhost:8000/health'", output: '200' }] },
    { role: 'assistant', text: 'Serving the AWQ weights over two GPUs.' },
  ],
};

const TUNED_WHEN_SLOW: SyntheticSession = {
  id: 'syn-tuned-when-slow',
  title: 'a server that answers too slowly, a scheduler flag tried against it, still too slow',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-32B-Instruct with vLLM on v100box (4x V100), port 8000. It needs at least 25 tok/s single stream.' },
    {
      role: 'assistant', text: 'Starting in fp16 over the four GPUs.',
      calls: [{ command: "ssh ops@v100box 'docker run -d --name q --gpus all -p 8000:8000 vllm/vllm-openai:v0.6.6.post1 --model Qwen/Qwen2.5-32B-Instruct --tensor-parallel-size 4 --dtype half'", output: 'f00d' }],
    },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh ops@v100box 'sleep 120; curl -s -o /dev/null -w %{http_code} localhost:8000/health'", output: '200' }] },
    {
      role: 'assistant', text: '400 tokens in 37 s = 10.8 tok/s: too slow, far below 25. One cheap thing to try: multi-step scheduling (`--num-scheduler-steps 8`).',
      calls: [{ command: "ssh ops@v100box 'docker rm -f q && docker run -d --name q --gpus all -p 8000:8000 vllm/vllm-openai:v0.6.6.post1 --model Qwen/Qwen2.5-32B-Instruct --tensor-parallel-size 4 --dtype half --num-scheduler-steps 8'", output: 'beef' }],
    },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh ops@v100box 'sleep 120; curl -s -o /dev/null -w %{http_code} localhost:8000/health'", output: '200' }] },
    { role: 'assistant', text: 'With `--num-scheduler-steps 8`: 12.2 tok/s. Still too slow, about half of the 25 tok/s you need; I stop here.' },
  ],
};

const trees = syntheticTrees([OLD_VENV, AWQ_AFTER_OOM, TUNED_WHEN_SLOW], 'retrace-ninth-round-');

describe('the ninth round', () => {
  it('names a framework run from a venv by the version the session read there', () => {
    expect(trees.names('syn-old-venv')).toEqual(['SGLang 0.4.3.post2 rejected']);
  });

  it('gives the failure after the login its place in the reason beside the gated-repo error', () => {
    const reason = trees.tree('syn-old-venv')?.candidates.find((c) => c.framework === 'sglang')?.reason ?? '';
    expect(reason).toMatch(/401/);
    expect(reason).toMatch(/gemma3/);
  });

  it('makes a flag tried against a run judged too slow an approach of its own, rejected when still too slow', () => {
    expect(trees.names('syn-tuned-when-slow')).toContain('--num-scheduler-steps 8 rejected');
  });

  it('does not keep a checkpoint that was proposed and then served as an untested lead', () => {
    const names = trees.names('syn-awq-after-oom');
    expect(names.some((n) => n.endsWith(' accepted'))).toBe(true);
    expect(names.filter((n) => n.endsWith(' untested'))).toEqual([]);
  });
});

/** A manifest read on an arm64 host that offers amd64 only: the image cannot run there, as a failed pull would say. */
const AMD64_ONLY: SyntheticSession = {
  id: 'syn-amd64-only-manifest',
  title: 'an arm64 box, a NIM whose manifest is amd64 only, then Ollama',
  steps: [
    { role: 'user', text: 'Serve Llama 3.3 70B on spark1 (DGX Spark), OpenAI API on port 8000.' },
    { role: 'assistant', text: 'What is the box?', calls: [{ command: "ssh lab@spark1 'uname -m; nvidia-smi --query-gpu=name --format=csv,noheader'", output: 'aarch64\nNVIDIA GB10\n' }] },
    {
      role: 'assistant', text: 'Checking whether the 70B NIM has an arm64 build before pulling 40 GB.',
      calls: [{ command: "ssh lab@spark1 'docker manifest inspect nvcr.io/nim/meta/llama-3.3-70b-instruct:1.8.4 | jq -c \".manifests[]?.platform // .architecture\"'", output: '{"architecture":"amd64","os":"linux"}\n' }],
    },
    { role: 'assistant', text: 'amd64 only: no NIM for 70B here. Trying Ollama instead.', calls: [{ command: "ssh lab@spark1 'ollama pull llama3.3:70b && ollama run llama3.3:70b hello'", output: 'success\nHello! How can I help?' }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh lab@spark1 'curl -s localhost:11434/api/tags'", output: '{"models":[{"name":"llama3.3:70b"}]}' }] },
    { role: 'assistant', text: 'Ollama serves llama3.3:70b.' },
  ],
};

const MANIFESTS = syntheticTrees([AMD64_ONLY], 'retrace-ninth-round-manifest-');

describe('a manifest read for the host it must run on', () => {
  it('rejects an image whose manifest offers nothing for the host, with the architecture as the reason', () => {
    const nim = MANIFESTS.candidate('syn-amd64-only-manifest', 'nvcr.io/nim/meta/llama-3.3-70b-instruct:1.8.4');
    expect(nim?.verdict).toBe('rejected');
    expect(nim?.reason).toMatch(/arm64/);
  });
});

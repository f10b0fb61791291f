import { describe, expect, it } from 'vitest';
import type { SyntheticSession } from './helpers/synthetic-session.js';
import { syntheticTrees } from './helpers/synthetic-trees.js';

/**
 * The ways a session sees a server answer besides curl of a health path — each told by a small
 * session of its own (none is a story of the eval corpus): a benchmark client's summary, a
 * server's own ready line read in its log, a chat through the Python OpenAI client.
 */
const BENCHMARKED: SyntheticSession = {
  id: 'syn-benchmarked',
  title: 'SGLang checked only by its benchmark client',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-32B-Instruct with SGLang on box1 (one H100) and tell me the throughput.' },
    { role: 'assistant', text: 'Old image first.', calls: [{ command: "ssh me@box1 'docker run --rm --gpus all -p 30000:30000 lmsysorg/sglang:v0.3.0 python3 -m sglang.launch_server --model-path Qwen/Qwen2.5-32B-Instruct --port 30000 2>&1 | tail -2'", exit: 1, output: 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB.' }] },
    { role: 'assistant', text: 'Newer image.', calls: [{ command: "ssh me@box1 'docker run -d --name sg --gpus all -p 30000:30000 lmsysorg/sglang:v0.4.6 python3 -m sglang.launch_server --model-path Qwen/Qwen2.5-32B-Instruct --port 30000 --mem-fraction-static 0.8'", output: 'c1' }] },
    { role: 'assistant', text: 'Measuring.', calls: [{ command: "ssh me@box1 'sleep 120; docker exec sg python3 -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 50 2>&1 | tail -3'", output: 'Successful requests:                     50\nOutput token throughput (tok/s):         41.20\nMean TPOT (ms):                          24.1' }] },
    { role: 'assistant', text: 'It serves: 41.2 tok/s output throughput over 50 requests.' },
  ],
};

const READY_AFTER_LOGIN: SyntheticSession = {
  id: 'syn-ready-after-login',
  title: 'vLLM from NGC after a login, its ready line read in the log',
  steps: [
    { role: 'user', text: 'Run meta-llama/Llama-3.1-8B-Instruct with the NGC vLLM container on gh1.' },
    { role: 'assistant', text: 'Pulling.', calls: [{ command: "ssh me@gh1 'docker pull nvcr.io/nvidia/vllm:25.01-py3'", exit: 1, output: 'Error response from daemon: unauthorized: authentication required' }] },
    { role: 'assistant', text: 'NGC wants a login.', calls: [{ command: "ssh me@gh1 'echo $NGC_API_KEY | docker login nvcr.io -u \\$oauthtoken --password-stdin && docker pull nvcr.io/nvidia/vllm:25.01-py3'", output: 'Login Succeeded\nStatus: Downloaded newer image for nvcr.io/nvidia/vllm:25.01-py3' }] },
    { role: 'assistant', text: 'Starting.', calls: [{ command: "ssh me@gh1 'docker run -d --name v --gpus all -p 8000:8000 nvcr.io/nvidia/vllm:25.01-py3 vllm serve meta-llama/Llama-3.1-8B-Instruct'", output: 'd1' }] },
    { role: 'assistant', text: 'Waiting for startup.', calls: [{ command: "ssh me@gh1 'sleep 90; docker logs v 2>&1 | tail -2'", output: 'INFO:     Waiting for application startup.\nINFO:     Application startup complete.' }] },
    { role: 'assistant', text: 'vLLM is up.' },
  ],
};

const PYTHON_CHAT: SyntheticSession = {
  id: 'syn-python-chat',
  title: 'TGI answering a chat through the OpenAI client',
  steps: [
    { role: 'user', text: 'Serve mistralai/Mistral-7B-Instruct-v0.3 with TGI on rig1.' },
    { role: 'assistant', text: 'Starting.', calls: [{ command: "ssh me@rig1 'docker run -d --name tgi --gpus all -p 8080:80 ghcr.io/huggingface/text-generation-inference:3.0.1 --model-id mistralai/Mistral-7B-Instruct-v0.3'", output: 'e1' }] },
    {
      role: 'assistant', text: 'A chat through the client.',
      calls: [{ command: "ssh me@rig1 'sleep 120; python3 - <<EOF\nfrom openai import OpenAI\nc = OpenAI(base_url=\"http://localhost:8080/v1\", api_key=\"-\")\nprint(c.chat.completions.create(model=\"tgi\", messages=[{\"role\": \"user\", \"content\": \"Say hi\"}]).choices[0].message.content)\nEOF'", output: 'Hi there! How can I help you today?' }],
    },
    { role: 'assistant', text: 'TGI answers chats.' },
  ],
};

const LOCAL_BUILD_TAG: SyntheticSession = {
  id: 'syn-local-build-tag',
  title: 'A vLLM wheel whose version carries a build tag',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-7B-Instruct with vLLM on gh2.' },
    { role: 'assistant', text: 'Installing the wheel.', calls: [{ command: "ssh me@gh2 'pip install ~/wheels/vllm-0.6.3+cu126-cp310-cp310-linux_aarch64.whl && python3 -c \"import vllm; print(vllm.__version__)\"'", output: 'Successfully installed vllm-0.6.3+cu126\n0.6.3+cu126' }] },
    { role: 'assistant', text: 'Starting.', calls: [{ command: "ssh me@gh2 'vllm serve Qwen/Qwen2.5-7B-Instruct 2>&1 | tail -2'", exit: 1, output: 'INFO vLLM version 0.6.3+cu126\nRuntimeError: CUDA error: no kernel image is available for execution on the device' }] },
    { role: 'assistant', text: 'This wheel has no kernels for this GPU.' },
  ],
};

const SESSIONS = [BENCHMARKED, READY_AFTER_LOGIN, PYTHON_CHAT, LOCAL_BUILD_TAG];
const { candidate, names } = syntheticTrees(SESSIONS, 'retrace-tree-answered-');

describe('a server answering in other ways than a health path', () => {
  it('a benchmark client\'s summary accepts the image it ran against, with its numbers as the reason', () => {
    expect(names(BENCHMARKED.id)).toEqual(['lmsysorg/sglang:v0.3.0 rejected', 'lmsysorg/sglang:v0.4.6 accepted']);
    expect(candidate(BENCHMARKED.id, 'lmsysorg/sglang:v0.4.6')?.reason).toContain('Successful requests: 50');
  });

  it('a ready line in the log after a pull fixed by a login accepts the image', () => {
    expect(names(READY_AFTER_LOGIN.id)).toEqual(['nvcr.io/nvidia/vllm:25.01-py3 accepted']);
    expect(candidate(READY_AFTER_LOGIN.id, 'nvcr.io/nvidia/vllm:25.01-py3')?.reason).toContain('Application startup complete');
  });

  it('a chat through the Python OpenAI client accepts the image', () => {
    expect(names(PYTHON_CHAT.id)).toEqual(['ghcr.io/huggingface/text-generation-inference:3.0.1 accepted']);
  });

  it('a framework named by the version the session read drops the wheel\'s local build tag', () => {
    expect(names(LOCAL_BUILD_TAG.id)).toContain('vLLM 0.6.3 rejected');
  });
});

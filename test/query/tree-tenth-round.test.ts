import { describe, expect, it } from 'vitest';
import type { SyntheticSession } from './helpers/synthetic-session.js';
import { syntheticTrees } from './helpers/synthetic-trees.js';

/**
 * The tenth round's rules, each on a session of its own:
 * - a failure read in a host's logs (`dmesg`) belongs to what last ran there, a compile in a throwaway container
 *   included, not to the server before it that the same command only asked about (`ollama ps`);
 * - a summary's bullet that names another candidate judges that one in every sentence it holds;
 * - a build step run in an image (`docker run --rm IMAGE trtllm-build …`) is a build, so a rebuild after it failed is an approach;
 * - a candidate whose every approach failed gives each one's failure as its reason;
 * - other weights name the way they were run on one node; a model of another size proposed in prose is a lead;
 * - the first part of a split GGUF names the whole weights;
 * - a call the user refused ran nothing; a benchmark's rate judges the build it ran; a failed launch listens on nothing
 *   once another followed it; a model checked through a proxy is the one behind it; a stack named as what another is
 *   made of is no lead; a version said of a proposed image is that image; a path served under a name is those weights.
 */
const COMPILE_OOM: SyntheticSession = {
  id: 'syn-compile-oom',
  title: 'Ollama too slow on a Jetson, MLC compile OOM-killed behind a tail, then MLC serves',
  steps: [
    { role: 'user', text: 'Put Llama-3.1-8B-Instruct on orin1 (kai@orin1) behind an OpenAI API. It needs at least 30 tok/s. Start with Ollama.' },
    { role: 'assistant', text: 'Ollama first.', calls: [{ command: "ssh kai@orin1 'ollama pull llama3.1:8b && ollama run llama3.1:8b --verbose hello 2>&1 | tail -2'", output: 'success\neval rate:            21.70 tokens/s\n' }] },
    { role: 'assistant', text: 'Ollama does 21.7 tok/s, under the 30 you need. MLC LLM is usually faster on Orin.', calls: [{ command: "ssh kai@orin1 'docker pull dustynv/mlc:0.1.4-r36.4.0'", output: 'Status: Downloaded newer image for dustynv/mlc:0.1.4-r36.4.0\n' }] },
    {
      role: 'assistant', text: 'Compiling the model library.',
      calls: [{ command: "ssh kai@orin1 'docker run --rm --runtime nvidia -v /models:/models dustynv/mlc:0.1.4-r36.4.0 mlc_llm compile /models/Llama-3.1-8B-Instruct-q4f16_1-MLC/mlc-chat-config.json --device cuda -o /models/libs/llama.so 2>&1 | tail -2'", output: '[2026-03-11 18:31:58] INFO compile.py:163: Compiling external modules\n' }],
    },
    {
      role: 'assistant', text: 'No library was written: the tail hid the failure. Checking the kernel log.',
      calls: [{ command: "ssh kai@orin1 'sudo dmesg -T | grep -iE \"oom-kill|Killed process\" | tail -2; systemctl is-active ollama; ollama ps'", output: '[Wed Mar 11 18:32:40 2026] Out of memory: Killed process 48213 (cicc) total-vm:19873320kB, anon-rss:15126876kB\nactive\nNAME           ID              SIZE\nllama3.1:8b    46e0e0f1f3c1    6.7 GB\n' }],
    },
    {
      role: 'assistant', text: 'The OOM killer took cicc while Ollama held 6.7 GB. Stopping Ollama and compiling again.',
      calls: [
        { command: "ssh kai@orin1 'sudo systemctl disable --now ollama'", output: '' },
        { command: "ssh kai@orin1 'set -o pipefail; docker run --rm --runtime nvidia -v /models:/models dustynv/mlc:0.1.4-r36.4.0 mlc_llm compile /models/Llama-3.1-8B-Instruct-q4f16_1-MLC/mlc-chat-config.json --device cuda -o /models/libs/llama.so && ls /models/libs'", output: 'llama.so\n' },
      ],
    },
    { role: 'assistant', text: 'Serving.', calls: [{ command: "ssh kai@orin1 'docker run -d --name mlc --runtime nvidia --network host -v /models:/models dustynv/mlc:0.1.4-r36.4.0 mlc_llm serve /models/Llama-3.1-8B-Instruct-q4f16_1-MLC --model-lib /models/libs/llama.so --port 8000'", output: '6b1e3d5f\n' }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh kai@orin1 'sleep 60; curl -s -o /dev/null -w \"%{http_code}\" localhost:8000/v1/models'", output: '200' }] },
    { role: 'assistant', text: 'MLC decodes at 38.6 tok/s, over the 30 needed.\n\nWhat happened:\n- **Ollama** (`llama3.1:8b`): 21.7 tok/s. Still too slow, so I disabled the service.\n- **MLC**: the first compile was OOM-killed; it built after stopping Ollama.' },
  ],
};

const ENGINE_IN_IMAGE: SyntheticSession = {
  id: 'syn-engine-in-image',
  title: 'a TensorRT-LLM engine built in the release image runs out of memory, a smaller rebuild serves',
  steps: [
    { role: 'user', text: 'Serve meta-llama/Llama-3.1-8B-Instruct with TensorRT-LLM (trtllm-serve) on ws7 (ines@ws7), port 8000.' },
    { role: 'assistant', text: 'Pulling the release image.', calls: [{ command: "ssh ines@ws7 'docker pull nvcr.io/nvidia/tensorrt-llm/release:0.18.2'", output: 'Status: Downloaded newer image for nvcr.io/nvidia/tensorrt-llm/release:0.18.2\n' }] },
    {
      role: 'assistant', text: 'Building the engine.',
      calls: [{ command: "ssh ines@ws7 'docker run --rm --gpus all -v /srv/trt:/trt nvcr.io/nvidia/tensorrt-llm/release:0.18.2 trtllm-build --checkpoint_dir /trt/ckpt/fp16 --output_dir /trt/engines/fp16 --max_batch_size 16 --max_num_tokens 32768'", output: '[TRT] [E] [resizingAllocator.cpp::allocate::74] Error Code 2: OutOfMemory (Requested size was 22548578304 bytes.)\nRuntimeError: Engine building failed, please check the error log.\n', exit: 1 }],
    },
    {
      role: 'assistant', text: 'Out of memory at build time: rebuilding with a smaller token budget.',
      calls: [{ command: "ssh ines@ws7 'docker run --rm --gpus all -v /srv/trt:/trt nvcr.io/nvidia/tensorrt-llm/release:0.18.2 trtllm-build --checkpoint_dir /trt/ckpt/fp16 --output_dir /trt/engines/fp16 --max_batch_size 8 --max_num_tokens 8192'", output: '[TRT-LLM] [I] Total time of building all engines: 00:02:47\n' }],
    },
    { role: 'assistant', text: 'Serving.', calls: [{ command: "ssh ines@ws7 'docker run -d --name trt --gpus all -p 8000:8000 -v /srv/trt:/trt nvcr.io/nvidia/tensorrt-llm/release:0.18.2 trtllm-serve /trt/engines/fp16 --port 8000'", output: 'abc123\n' }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh ines@ws7 'sleep 40; curl -s -o /dev/null -w \"%{http_code}\" localhost:8000/health'", output: '200' }] },
    { role: 'assistant', text: 'trtllm-serve answers on port 8000 from the rebuilt engine.' },
  ],
};

const NODES_THEN_AWQ: SyntheticSession = {
  id: 'syn-nodes-then-awq',
  title: 'a pipeline over two nodes times out in NCCL, the AWQ weights on one node are too slow',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-72B-Instruct with vLLM across gpu-a and gpu-b (ubuntu@gpu-a), port 8000. It needs at least 20 tok/s per stream.' },
    {
      role: 'assistant', text: 'Starting TP4 x PP2 across the two nodes.',
      calls: [{ command: "ssh ubuntu@gpu-a 'docker run --rm --gpus all --network host vllm/vllm-openai:v0.8.5 --model Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 4 --pipeline-parallel-size 2 --port 8000'", output: '[rank5]:[E ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=3, OpType=RECV, Timeout(ms)=600000) ran for 600021 milliseconds before timing out.\n', exit: 1 }],
    },
    {
      role: 'assistant', text: 'The cross-node receive hung. Trying the AWQ checkpoint on gpu-a alone.',
      calls: [{ command: "ssh ubuntu@gpu-a 'docker run -d --name q --gpus all -p 8000:8000 vllm/vllm-openai:v0.8.5 --model Qwen/Qwen2.5-72B-Instruct-AWQ --tensor-parallel-size 4 --port 8000'", output: 'f00d\n' }],
    },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh ubuntu@gpu-a 'sleep 90; curl -s -o /dev/null -w \"%{http_code}\" localhost:8000/health'", output: '200' }] },
    { role: 'assistant', text: 'It serves, at 16.4 tok/s single stream.' },
    { role: 'assistant', text: 'Nothing meets the bar yet.\n\nOptions I haven\'t tried:\n- Qwen2.5-32B-Instruct in bf16 on one node (TP4, 64 GB).\n- Retry the two-node layout once the firewall opens.' },
  ],
};

const SPLIT_GGUF: SyntheticSession = {
  id: 'syn-split-gguf',
  title: 'a split Q8_0 GGUF runs out of memory, the Q4_K_M serves',
  steps: [
    { role: 'user', text: 'Serve Llama-3.3-70B-Instruct as a GGUF with llama-server on gh1 (ops@gh1), port 8080.' },
    {
      role: 'assistant', text: 'Starting the Q8_0 split.',
      calls: [{ command: "ssh ops@gh1 '~/llama.cpp/build/bin/llama-server -m ~/models/Llama-3.3-70B-Instruct-Q8_0-00001-of-00002.gguf -ngl 99 --port 8080'", output: 'ggml_backend_cuda_buffer_type_alloc_buffer: allocating 71000.00 MiB on device 0: cudaMalloc failed: out of memory\nllama_model_load: error loading model: unable to allocate CUDA0 buffer\n', exit: 1 }],
    },
    {
      role: 'assistant', text: 'Too big for the card: the Q4_K_M instead.',
      calls: [{ command: "ssh ops@gh1 'nohup ~/llama.cpp/build/bin/llama-server -m ~/models/Llama-3.3-70B-Instruct-Q4_K_M.gguf -ngl 99 --port 8080 > ~/server.log 2>&1 &'", output: '' }],
    },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh ops@gh1 'sleep 60; curl -s localhost:8080/health'", output: '{"status":"ok"}' }] },
    { role: 'assistant', text: 'llama-server serves the Q4_K_M on port 8080.' },
  ],
};

const trees = syntheticTrees([COMPILE_OOM, ENGINE_IN_IMAGE, NODES_THEN_AWQ, SPLIT_GGUF], 'retrace-tenth-round-');

describe('the tenth round', () => {
  it('gives a kernel log read after a compile to the compile, not to the server the same command asked about', () => {
    const ollama = trees.tree('syn-compile-oom')?.candidates.find((c) => c.framework === 'ollama');
    expect(ollama?.verdict).toBe('rejected');
    expect(ollama?.reason).toMatch(/slow/);
    expect(ollama?.reason).not.toMatch(/OOM killer/);
  });

  it('reads a summary bullet about another candidate as judging that one, not the one that served', () => {
    expect(trees.candidate('syn-compile-oom', 'dustynv/mlc:0.1.4-r36.4.0')?.verdict).toBe('accepted');
  });

  it('makes a rebuild in the image after an engine build ran out of memory an approach, with the error token as its reason', () => {
    const approaches = trees.tree('syn-engine-in-image')?.candidates.filter((c) => c.kind === 'approach') ?? [];
    expect(approaches.map((c) => c.verdict)).toEqual(['rejected', 'accepted']);
    expect(approaches[0]?.reason).toMatch(/OutOfMemory/);
    expect(trees.candidate('syn-engine-in-image', 'nvcr.io/nvidia/tensorrt-llm/release:0.18.2')?.verdict).toBe('accepted');
  });

  it('tells each failed way in the reason of a candidate whose every approach failed', () => {
    const image = trees.candidate('syn-nodes-then-awq', 'vllm/vllm-openai:v0.8.5');
    expect(image?.verdict).toBe('rejected');
    expect(image?.reason).toMatch(/NCCL/);
    expect(image?.reason).toMatch(/slow/);
  });

  it('names the one-node way by its other weights, and keeps a model of another size proposed in prose as a lead', () => {
    const names = trees.names('syn-nodes-then-awq');
    expect(names).toContain('Qwen/Qwen2.5-72B-Instruct-AWQ rejected');
    expect(names).toContain('Qwen2.5-32B-Instruct untested');
    expect(names).not.toContain('single node untested');
  });

  it('names split GGUF weights by the whole file, not its first part', () => {
    expect(trees.names('syn-split-gguf')).toContain('Llama-3.3-70B-Instruct-Q8_0.gguf rejected');
  });
});

const REFUSED_THEN_BENCH: SyntheticSession = {
  id: 'syn-refused-then-bench',
  title: 'a refused pull, Ollama too slow, a llama.cpp build benchmarked too slow',
  steps: [
    { role: 'user', text: 'Put llama 3.3 70b on cpu1 (piotr@cpu1) with ollama. It needs at least 8 tok/s.' },
    { role: 'assistant', text: 'Pulling the fp16 tag.', calls: [{ command: "ssh piotr@cpu1 'ollama pull llama3.3:70b-instruct-fp16'", output: "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.", exit: 1 }] },
    { role: 'user', text: 'no, the normal q4 tag' },
    { role: 'assistant', text: 'The default tag.', calls: [{ command: "ssh piotr@cpu1 'ollama pull llama3.3:70b && ollama run llama3.3:70b --verbose hello 2>&1 | tail -1'", output: 'success\neval rate:            1.12 tokens/s\n' }] },
    { role: 'assistant', text: 'Ollama does 1.12 tok/s, far below 8. Building llama.cpp natively.', calls: [{ command: "ssh piotr@cpu1 'git clone https://github.com/ggml-org/llama.cpp ~/llama.cpp && cd ~/llama.cpp && cmake -B build -DGGML_NATIVE=ON && cmake --build build -j 64'", output: '[100%] Built target llama-server\n' }] },
    { role: 'assistant', text: 'Benchmarking.', calls: [{ command: "ssh piotr@cpu1 '~/llama.cpp/build/bin/llama-bench -m ~/models/llama-3.3-70b-q4_k_m.gguf -t 64'", output: '| llama 70B Q4_K - Medium | 39.59 GiB | 70.55 B | CPU | 64 | tg128 | 1.71 ± 0.03 |\n' }] },
    { role: 'assistant', text: 'Best case is 1.7 tok/s: all of them are too slow for the 8 tok/s floor, and the tuned llama.cpp only buys ~50% over Ollama.' },
  ],
};

const COMPOSE_THEN_NATIVE: SyntheticSession = {
  id: 'syn-compose-then-native',
  title: 'a compose launch that cannot get a GPU, then the server run natively answers on the same port',
  steps: [
    { role: 'user', text: 'Set up tabbyAPI on this box (a 7900 XTX) for Qwen2.5-Coder-32B exl2, port 5000.' },
    { role: 'assistant', text: 'Cloning and reading its compose file.', calls: [{ command: 'git clone https://github.com/theroyallab/tabbyAPI ~/tabbyAPI && cat ~/tabbyAPI/docker-compose.yml', output: 'services:\n  tabbyapi:\n    image: ghcr.io/theroyallab/tabbyapi:latest\n    ports:\n      - "5000:5000"\n    deploy:\n      resources:\n        reservations:\n          devices:\n            - driver: nvidia\n              count: all\n              capabilities: [gpu]\n' }] },
    { role: 'assistant', text: 'Starting with compose.', calls: [{ command: 'cd ~/tabbyAPI && docker compose up -d', output: 'Error response from daemon: could not select device driver "nvidia" with capabilities: [[gpu]]', exit: 1 }] },
    { role: 'assistant', text: 'The compose file is CUDA-only. Running it natively with ROCm torch.', calls: [{ command: 'cd ~/tabbyAPI && docker compose down && python -m venv venv && ./venv/bin/pip install -U .[amd]', output: 'Successfully installed tabbyAPI-0.0.1' }] },
    { role: 'assistant', text: 'Starting.', calls: [{ command: 'cd ~/tabbyAPI && nohup ./venv/bin/python main.py > ~/tabby.log 2>&1 &', output: '' }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: "sleep 30; curl -s -o /dev/null -w '%{http_code}' localhost:5000/health", output: '200' }] },
    { role: 'assistant', text: 'tabbyAPI answers on port 5000.' },
  ],
};

const THROUGH_PROXY: SyntheticSession = {
  id: 'syn-through-proxy',
  title: 'an Ollama model checked through the reverse proxy in front of it',
  steps: [
    { role: 'user', text: 'Serve llama3.3:70b with ollama on the mac (jo@mac1), through caddy (root@proxy1) as https://llm.lab.internal.' },
    { role: 'assistant', text: 'Pulling and trying it.', calls: [{ command: "ssh jo@mac1 'ollama pull llama3.3:70b && ollama run llama3.3:70b hello'", output: 'success\nHello!' }] },
    { role: 'assistant', text: 'Through the proxy.', calls: [{ command: 'curl -s -u team:x https://llm.lab.internal/v1/chat/completions -d \'{"model":"llama3.3:70b","messages":[{"role":"user","content":"hi"}]}\'', output: '{"choices":[{"message":{"content":"Hello team!"}}]}' }] },
    { role: 'assistant', text: 'It answers through Caddy. Later, running the 4-bit MLX build with `mlx_lm.server` could be faster than llama.cpp-based Ollama on Apple silicon.' },
  ],
};

const SERVED_NAME: SyntheticSession = {
  id: 'syn-served-name',
  title: 'one weights folder launched with and without a served name',
  steps: [
    { role: 'user', text: 'Put Qwen/Qwen2.5-32B-Instruct-AWQ up with sglang on gpu9 (root@gpu9), tp 2, port 30000.' },
    { role: 'assistant', text: 'Starting.', calls: [{ command: "ssh root@gpu9 'docker run -d --name sg --gpus all -p 30000:30000 -v /models:/models lmsysorg/sglang:v0.4.6.post5-cu124 python3 -m sglang.launch_server --model-path /models/Qwen2.5-32B-Instruct-AWQ --served-model-name qwen2.5-32b --tp 2 --port 30000'", output: 'abc' }] },
    { role: 'assistant', text: 'It died; running in the foreground with NCCL debug output.', calls: [{ command: "ssh root@gpu9 'docker rm -f sg; docker run --rm --gpus all -e NCCL_DEBUG=INFO -v /models:/models lmsysorg/sglang:v0.4.6.post5-cu124 python3 -m sglang.launch_server --model-path /models/Qwen2.5-32B-Instruct-AWQ --tp 2 --port 30000'", output: 'NCCL WARN Error while creating shared memory segment /dev/shm/nccl-Xp0bqE (size 9637888)\n', exit: 1 }] },
    { role: 'assistant', text: 'A bigger /dev/shm.', calls: [{ command: "ssh root@gpu9 'docker run -d --name sg --gpus all --shm-size 16g -p 30000:30000 -v /models:/models lmsysorg/sglang:v0.4.6.post5-cu124 python3 -m sglang.launch_server --model-path /models/Qwen2.5-32B-Instruct-AWQ --served-model-name qwen2.5-32b --tp 2 --port 30000'", output: 'def' }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh root@gpu9 'sleep 60; curl -s -o /dev/null -w %{http_code} localhost:30000/health'", output: '200' }] },
    { role: 'assistant', text: 'Serving. If you ever want another stack, vllm/vllm-openai:v0.8.5 could also serve it; vLLM 0.8.5 has the AWQ Marlin kernels.' },
  ],
};

const MORE = syntheticTrees([REFUSED_THEN_BENCH, COMPOSE_THEN_NATIVE, THROUGH_PROXY, SERVED_NAME], 'retrace-tenth-round-more-');

describe('the tenth round, second part', () => {
  it('tries nothing with a call the user refused, and judges a benchmarked build by its rate', () => {
    const names = MORE.names('syn-refused-then-bench');
    expect(names.some((n) => n.includes('fp16'))).toBe(false);
    expect(names).toContain('ollama llama3.3:70b rejected');
    expect(names).toContain('ggml-org/llama.cpp rejected');
  });

  it('gives a health check on the port of a failed compose launch to the server launched after it', () => {
    const tree = MORE.tree('syn-compose-then-native');
    const accepted = tree?.candidates.filter((c) => c.verdict === 'accepted') ?? [];
    expect(accepted.map((c) => c.kind)).toEqual(['framework']);
  });

  it('keeps one model checked through a proxy, and reads no lead from "llama.cpp-based"', () => {
    expect(MORE.names('syn-through-proxy')).toEqual(['llama3.3:70b accepted', 'mlx_lm.server untested']);
  });

  it('makes no approaches of one weights folder launched with and without its served name, and one lead of an image and its version', () => {
    const names = MORE.names('syn-served-name');
    expect(names.filter((n) => n.endsWith(' untested'))).toEqual(['vllm/vllm-openai:v0.8.5 untested']);
    expect(MORE.tree('syn-served-name')?.candidates.filter((c) => c.kind === 'approach')).toEqual([]);
  });
});

const BUILT_IN_PLACE: SyntheticSession = {
  id: 'syn-built-in-place',
  title: 'a server built in its checkout (mistral.rs with cargo), launched from target/release',
  steps: [
    { role: 'user', text: 'On ws9 (arjun@ws9) I cloned mistral.rs to ~/src/mistral.rs. Build it with cuda and get Qwen/Qwen3-14B running, openai api. If this turns into a rabbit hole I\'ll just go back to llama.cpp.' },
    { role: 'assistant', text: 'Building.', calls: [{ command: "ssh arjun@ws9 'cd ~/src/mistral.rs && cargo build --release --features cuda 2>&1 | tail -2'", output: '    Finished `release` profile [optimized] target(s) in 9m 12s\n' }] },
    { role: 'assistant', text: 'Starting the server.', calls: [{ command: "ssh arjun@ws9 'cd ~/src/mistral.rs && (nohup ./target/release/mistralrs-server --port 8091 --isq 4 plain -m Qwen/Qwen3-14B > ~/m.log 2>&1 &); sleep 60; tail -2 ~/m.log'", output: 'INFO mistralrs_server: Serving on http://0.0.0.0:8091.\n' }] },
    { role: 'assistant', text: 'Checking.', calls: [{ command: "ssh arjun@ws9 'curl -s -o /dev/null -w %{http_code} localhost:8091/v1/models'", output: '200' }] },
    { role: 'assistant', text: 'mistral.rs serves Qwen3-14B on port 8091.' },
  ],
};

const PASTED_THEN_ASKED: SyntheticSession = {
  id: 'syn-pasted-then-asked',
  title: 'a log pasted alone in a fence, then the request; a script the session read, then ran',
  steps: [
    { role: 'user', text: '```\nI0711 16:48:20.331455 1 pb_stub.cc:366] "Failed to initialize Python stub: ValueError: The model\'s max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache (27632)."\nE0711 16:48:20.880136 1 model_lifecycle.cc:654] "failed to load \'llama31\' version 1"\n```' },
    { role: 'assistant', text: 'That is the vLLM backend refusing to start llama31. What should I do with it?' },
    { role: 'user', text: 'get the Triton model llama31 loading with the full 128k context on inf1 (sofia@inf1), two A10s there. The run script is ~/run-triton.sh.' },
    { role: 'assistant', text: 'Reading the model config and the run script.', calls: [
      { command: 'cat model_repository/llama31/1/model.json', output: '{\n    "model": "meta-llama/Llama-3.1-8B-Instruct",\n    "gpu_memory_utilization": 0.9,\n    "tensor_parallel_size": 1,\n    "max_model_len": 131072\n}\n' },
      { command: "ssh sofia@inf1 'ls -la /srv/triton; cat ~/run-triton.sh'", output: 'total 12\ndrwxr-xr-x 3 sofia sofia 4096 Jul 10 11:20 model_repository\n#!/bin/sh\ndocker rm -f triton 2>/dev/null\ndocker run -d --name triton --gpus all -p 8000:8000 -v /srv/triton/model_repository:/models \\\n  nvcr.io/nvidia/tritonserver:25.01-vllm-python-py3 \\\n  tritonserver --model-repository=/models\n' },
    ] },
    { role: 'assistant', text: 'Starting it as it is.', calls: [{ command: "rsync -av model_repository/ sofia@inf1:/srv/triton/model_repository/ && ssh sofia@inf1 'sh ~/run-triton.sh && sleep 90; docker logs triton 2>&1 | tail -2'", output: 'ValueError: The model\'s max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache (27632). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.\n' }] },
    { role: 'assistant', text: 'One A10 cannot hold it: tensor_parallel_size 2 across both.', calls: [{ command: `sed -i 's/"tensor_parallel_size": 1/"tensor_parallel_size": 2/' model_repository/llama31/1/model.json && rsync -av model_repository/ sofia@inf1:/srv/triton/model_repository/ && ssh sofia@inf1 'sh ~/run-triton.sh && sleep 90; docker logs triton 2>&1 | tail -1'`, output: 'I0713 08:13:58.951488 1 http_server.cc:4729] "Started HTTPService at 0.0.0.0:8000"\n' }] },
    { role: 'assistant', text: 'Ready?', calls: [{ command: "ssh sofia@inf1 'curl -s -o /dev/null -w %{http_code} localhost:8000/v2/health/ready'", output: '200' }] },
    { role: 'assistant', text: 'llama31 loads with the full context over both A10s.' },
  ],
};

const THIRD = syntheticTrees([BUILT_IN_PLACE, PASTED_THEN_ASKED], 'retrace-tenth-round-third-');

describe('the tenth round, third part', () => {
  it('takes a server built in its own checkout for a candidate named by its folder, and a fallback the user names for a lead', () => {
    expect(THIRD.names('syn-built-in-place')).toEqual(['mistral.rs accepted', 'llama.cpp untested']);
  });

  it('reads the request after a log pasted alone in a fence as the goal', () => {
    expect(THIRD.tree('syn-pasted-then-asked')?.goal).toMatch(/^get the Triton model llama31/);
  });

  it('runs the commands of a script the session read, and tells launches apart by the model.json they read', () => {
    expect(THIRD.names('syn-pasted-then-asked')).toEqual([
      'nvcr.io/nvidia/tritonserver:25.01-vllm-python-py3 accepted',
      'tensor_parallel_size 1 rejected',
      'tensor_parallel_size 2 accepted',
    ]);
  });
});

const SCRIPT_WITH_VARIABLES: SyntheticSession = {
  id: 'syn-script-variables',
  title: 'a deploy script with variables, checked with bash -n, then run; a venv only listed on the head node',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-72B-Instruct with vLLM on gpu-a (mei@gpu-a), port 8000, using a deploy script.' },
    { role: 'assistant', text: 'What is in the venv there?', calls: [{ command: "ssh mei@gpu-a '~/vllm-env/bin/pip show vllm'", output: 'Name: vllm\nVersion: 0.8.5\n' }] },
    { role: 'assistant', text: 'Writing the script.', calls: [{ command: "cat deploy/run.sh", output: '#!/usr/bin/env bash\nset -euo pipefail\nIMAGE=vllm/vllm-openai:v0.8.5\nssh mei@gpu-a "docker rm -f v >/dev/null 2>&1 || true; docker run -d --name v --gpus all -p 8000:8000 $IMAGE --model Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 4"\n' }] },
    { role: 'assistant', text: 'Syntax check, then run.', calls: [
      { command: 'bash -n deploy/run.sh && echo ok', output: 'ok\n' },
      { command: 'bash deploy/run.sh', output: 'c0ffee\n' },
    ] },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh mei@gpu-a 'sleep 120; curl -s -o /dev/null -w %{http_code} localhost:8000/health'", output: '200' }] },
    { role: 'assistant', text: 'Serving.' },
  ],
};

const FOURTH = syntheticTrees([SCRIPT_WITH_VARIABLES], 'retrace-tenth-round-fourth-');

describe('the tenth round, fourth part', () => {
  it('puts a script\'s variables into the commands it runs, runs nothing for bash -n, and tries nothing only listed in a venv', () => {
    expect(FOURTH.names('syn-script-variables')).toEqual(['vllm/vllm-openai:v0.8.5 accepted']);
    expect(FOURTH.tree('syn-script-variables')?.candidates[0]?.evidence.filter((e) => e.kind === 'serve')).toHaveLength(1);
  });
});

const BUILD_AFTER_SERVING: SyntheticSession = {
  id: 'syn-build-after-serving',
  title: 'an engine that serves, then a conversion for another model fails, then a request for something else',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-32B-Instruct with TensorRT-LLM on gpu0 of a100a (ops@a100a), port 8000.' },
    { role: 'assistant', text: 'Starting the release container.', calls: [{ command: "ssh ops@a100a 'docker run -d --name trt --gpus all -p 8000:8000 -v /data:/data nvcr.io/nvidia/tensorrt-llm/release:0.17.0 sleep infinity'", output: 'abc\n' }] },
    { role: 'assistant', text: 'Building a bf16 engine.', calls: [{ command: "ssh ops@a100a 'docker exec trt trtllm-build --checkpoint_dir /data/ckpt/bf16 --output_dir /data/engines/bf16 --max_batch_size 256'", output: '[TRT] [E] Error Code 2: OutOfMemory (Requested size was 17179869184 bytes.)\n', exit: 1 }] },
    { role: 'assistant', text: 'Out of memory: an int8 weight-only engine instead.', calls: [{ command: "ssh ops@a100a 'docker exec trt trtllm-build --checkpoint_dir /data/ckpt/int8 --output_dir /data/engines/int8 --max_batch_size 64'", output: 'Total time of building all engines: 00:04:12\n' }] },
    { role: 'assistant', text: 'Serving.', calls: [{ command: "ssh ops@a100a \"docker exec -d trt bash -c 'trtllm-serve /data/engines/int8 --port 8000'\"", output: '' }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh ops@a100a 'sleep 60; curl -s -o /dev/null -w %{http_code} localhost:8000/health'", output: '200' }] },
    { role: 'assistant', text: 'The int8 engine answers.' },
    { role: 'user', text: 'great. now also try Qwen3-30B-A3B on the same container' },
    { role: 'assistant', text: 'Converting Qwen3-30B-A3B.', calls: [{ command: "ssh ops@a100a 'docker exec trt python3 /app/tensorrt_llm/examples/qwen/convert_checkpoint.py --model_dir /data/models/Qwen3-30B-A3B --output_dir /data/ckpt/q3 --dtype bfloat16'", output: 'ValueError: The checkpoint you are trying to load has model type `qwen3_moe` but Transformers does not recognize this architecture.\n', exit: 1 }] },
    { role: 'assistant', text: 'Is the int8 server still up?', calls: [{ command: "ssh ops@a100a 'curl -s -o /dev/null -w %{http_code} localhost:8000/health'", output: '200' }] },
    { role: 'assistant', text: 'TensorRT-LLM 0.17 cannot convert Qwen3-MoE; the int8 engine keeps serving. We could try TensorRT-LLM 0.17 with a newer transformers, but that is not supported.' },
  ],
};

const FIFTH = syntheticTrees([BUILD_AFTER_SERVING], 'retrace-tenth-round-fifth-');

describe('the tenth round, fifth part', () => {
  it('gives a check to the engine launched before it, not to a failed build after it', () => {
    const approaches = FIFTH.tree('syn-build-after-serving')?.candidates.filter((c) => c.kind === 'approach') ?? [];
    expect(approaches.map((c) => c.verdict)).toEqual(['rejected', 'accepted', 'rejected']);
    expect(approaches[2]?.reason).toMatch(/qwen3_moe/);
  });

  it('takes "TensorRT-LLM 0.17" for the tried release:0.17.0, not a lead', () => {
    expect(FIFTH.names('syn-build-after-serving').filter((n) => n.endsWith(' untested'))).toEqual([]);
  });
});

const NIM_ONLY: SyntheticSession = {
  id: 'syn-nim-only-leads',
  title: 'a NIM that does not fit; other stacks offered, models named by size; the user declines them',
  steps: [
    { role: 'user', text: 'I want Llama-3.3-70B-Instruct served with NIM on gx1 (ops@gx1), OpenAI API on port 8000.' },
    { role: 'assistant', text: 'Pulling the NIM.', calls: [{ command: "ssh ops@gx1 'docker pull nvcr.io/nim/meta/llama-3.3-70b-instruct:1.8.5'", output: 'no matching manifest for linux/arm64/v8 in the manifest list entries\n', exit: 1 }] },
    { role: 'assistant', text: 'Options:\n1. A smaller NIM: `nvcr.io/nim/meta/llama-3.1-8b-instruct:1.13.1` (Llama-3.1-8B) has an arm64 build.\n2. Leave NIM for this box: llama.cpp (`llama-server`, a Q4_K_M GGUF of Llama-3.3-70B is ~43 GB) or Ollama (`llama3.3:70b`).' },
    { role: 'user', text: 'no llama.cpp/ollama, security only signed off on NIM containers. clean up please.' },
    { role: 'assistant', text: 'Cleaning up.', calls: [{ command: "ssh ops@gx1 'docker image prune -f'", output: 'Total reclaimed space: 0B\n' }] },
  ],
};

const VIA_NGINX_ADDRESS: SyntheticSession = {
  id: 'syn-via-nginx-address',
  title: 'a server checked only through the nginx box in front of it, by address',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-14B-Instruct-AWQ with vLLM on llm-a (ubuntu@10.8.0.11) behind the nginx on gw (10.8.0.10).' },
    { role: 'assistant', text: 'Starting.', calls: [{ command: "ssh ubuntu@10.8.0.11 'docker run -d --name vllm --gpus all -p 8000:8000 vllm/vllm-openai:v0.8.5 --model Qwen/Qwen2.5-14B-Instruct-AWQ'", output: 'abc\n' }] },
    { role: 'assistant', text: 'Through nginx.', calls: [{ command: "sleep 120; curl -s -o /dev/null -w '%{http_code}\\n' http://10.8.0.10/v1/models", output: '200\n' }] },
    { role: 'assistant', text: 'Serving through gw.' },
  ],
};

const SIXTH = syntheticTrees([NIM_ONLY, VIA_NGINX_ADDRESS], 'retrace-tenth-round-sixth-');

describe('the tenth round, sixth part', () => {
  it('reads no lead from the model asked for or one an image already names, and two stacks from "llama.cpp/ollama"', () => {
    const leads = SIXTH.names('syn-nim-only-leads').filter((n) => n.endsWith(' untested'));
    expect(leads).toContain('nvcr.io/nim/meta/llama-3.1-8b-instruct:1.13.1 untested');
    expect(leads).toContain('llama.cpp untested');
    expect(leads.some((n) => /^Llama-3\.[13]-\d+B /.test(n) || n.includes('/ollama'))).toBe(false);
  });

  it('gives a check of the nginx box, by address, to the server behind it', () => {
    expect(SIXTH.names('syn-via-nginx-address')).toEqual(['vllm/vllm-openai:v0.8.5 accepted']);
  });
});

const WHEEL_THEN_ROCM: SyntheticSession = {
  id: 'syn-wheel-then-rocm',
  title: 'a CUDA wheel on an AMD box, a ROCm build in another venv, an image with the context the user asked for',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-72B-Instruct with SGLang on the MI300X node (ops@mi1), port 30000.' },
    { role: 'assistant', text: 'Installing from PyPI.', calls: [
      { command: "ssh ops@mi1 'python3 -m venv ~/venvs/sglang && ~/venvs/sglang/bin/pip install \"sglang[all]==0.4.6.post1\"'", output: 'Successfully installed sglang-0.4.6.post1 torch-2.6.0\n' },
      { command: "ssh ops@mi1 '~/venvs/sglang/bin/python -c \"import torch; print(torch.cuda.is_available())\"'", output: 'UserWarning: CUDA initialization: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver\nFalse\n' },
    ] },
    { role: 'assistant', text: 'The wrong build. A source build in a ROCm venv.', calls: [
      { command: "ssh ops@mi1 'git clone -b v0.4.6.post1 https://github.com/sgl-project/sglang.git ~/src/sglang && ~/venvs/sglang-rocm/bin/pip install -e ~/src/sglang/python'", output: 'Successfully installed sglang-0.4.6.post1\n' },
      { command: "ssh ops@mi1 '~/venvs/sglang-rocm/bin/python -m sglang.launch_server --model-path Qwen/Qwen2.5-72B-Instruct --tp 8 --port 30000'", output: 'RuntimeError: HIP error: hipErrorNoBinaryForGpu\n', exit: 1 },
    ] },
    { role: 'user', text: 'no more builds, use the rocm image' },
    { role: 'assistant', text: 'The ROCm image.', calls: [{ command: "ssh ops@mi1 'docker run -d --name sg --device /dev/kfd --device /dev/dri -p 30000:30000 lmsysorg/sglang:v0.4.6.post1-rocm630 python3 -m sglang.launch_server --model-path Qwen/Qwen2.5-72B-Instruct --tp 8 --port 30000'", output: 'abc\n' }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh ops@mi1 'sleep 300; curl -s -o /dev/null -w %{http_code} localhost:30000/health'", output: '200' }] },
    { role: 'user', text: 'good. and add --context-length 32768, the harness never sends more' },
    { role: 'assistant', text: 'Recreating it with a 32k context.', calls: [{ command: "ssh ops@mi1 'docker rm -f sg && docker run -d --name sg --device /dev/kfd --device /dev/dri -p 30000:30000 lmsysorg/sglang:v0.4.6.post1-rocm630 python3 -m sglang.launch_server --model-path Qwen/Qwen2.5-72B-Instruct --tp 8 --port 30000 --context-length 32768'", output: 'def\n' }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh ops@mi1 'sleep 300; curl -s -o /dev/null -w %{http_code} localhost:30000/health'", output: '200' }] },
    { role: 'assistant', text: 'Serving with a 32k context.' },
  ],
};

const SEVENTH = syntheticTrees([WHEEL_THEN_ROCM], 'retrace-tenth-round-seventh-');

describe('the tenth round, seventh part', () => {
  it('rejects a CUDA wheel that finds no NVIDIA driver, keeps the build of another venv apart, and takes an option the user asked for as the request', () => {
    expect(SEVENTH.names('syn-wheel-then-rocm')).toEqual([
      'sglang[all]==0.4.6.post1 rejected',
      'SGLang from source rejected',
      'lmsysorg/sglang:v0.4.6.post1-rocm630 accepted',
    ]);
    expect(SEVENTH.candidate('syn-wheel-then-rocm', 'sglang[all]==0.4.6.post1')?.reason).toMatch(/no NVIDIA driver/);
  });
});

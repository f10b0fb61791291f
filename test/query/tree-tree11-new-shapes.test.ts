import { describe, expect, it } from 'vitest';
import type { SyntheticSession } from './helpers/synthetic-session.js';
import { syntheticTrees } from './helpers/synthetic-trees.js';

/**
 * Failure shapes and stacks the earlier rounds had not met, each told by a small session of its own
 * with invented names (none is a story of the eval corpus): the host OOM killer, a driver too old for
 * the CUDA build, a flag a newer version removed, a port in use, /dev/shm too small, garbage output,
 * a missing chat template, rocBLAS without kernels for the GPU; Aphrodite, KTransformers and LocalAI
 * as serving stacks; a curl pod as a health check; backends of one source checkout as approaches.
 */
const HEALTH = (port: number): string => `curl -s -o /dev/null -w "%{http_code}\\n" localhost:${port}/v1/models`;

const HOST_OOM: SyntheticSession = {
  id: 'syn-host-oom',
  title: 'The kernel OOM killer stops a hybrid CPU/GPU server, a smaller quant loads but is too slow',
  steps: [
    { role: 'user', text: 'Run DeepSeek-V3 with ktransformers on box1, I need 10 tok/s.' },
    { role: 'assistant', text: 'Starting with the Q4 weights.', calls: [{ command: "ssh me@box1 'ktransformers --model_path /m/DeepSeek-V3 --gguf_path /g/DeepSeek-V3-Q4_K_M --cpu_infer 30 --port 10002 2>&1 | tail -2'", output: 'loading blk.40.ffn_up_exps.weight to cpu\nKilled', exit: 137 }] },
    { role: 'assistant', text: 'Killed while loading. Trying the smaller quant.', calls: [{ command: "ssh me@box1 'ktransformers --model_path /m/DeepSeek-V3 --gguf_path /g/DeepSeek-V3-GGUF/IQ2_XXS --cpu_infer 30 --port 10002 > /tmp/kt.log 2>&1 & sleep 300; tail -1 /tmp/kt.log'", output: 'INFO:     Uvicorn running on http://0.0.0.0:10002 (Press CTRL+C to quit)' }] },
    { role: 'assistant', text: 'Up.', calls: [{ command: `ssh me@box1 '${HEALTH(10002)}'`, output: '200' }] },
    { role: 'assistant', text: 'It answers, but decode is 3 tok/s, far too slow for the 10 tok/s you asked for. Stopping here.' },
  ],
};

const OLD_DRIVER: SyntheticSession = {
  id: 'syn-old-driver',
  title: 'A CUDA 12 image on a CUDA 11 driver',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-7B-Instruct with vLLM on ws1, port 8000.' },
    { role: 'assistant', text: 'Starting.', calls: [{ command: "ssh me@ws1 'docker run --rm --gpus all -p 8000:8000 vllm/vllm-openai:v0.9.0 --model Qwen/Qwen2.5-7B-Instruct 2>&1 | tail -1'", output: 'RuntimeError: CUDA driver version is insufficient for CUDA runtime version', exit: 1 }] },
    { role: 'assistant', text: 'The driver on ws1 is too old for this image; I will ask before upgrading it.' },
  ],
};

const REMOVED_FLAG: SyntheticSession = {
  id: 'syn-removed-flag',
  title: 'A flag the newer version removed',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-7B-Instruct with SGLang on g2, port 30000.' },
    { role: 'assistant', text: 'Starting with the fleet flags.', calls: [{ command: "ssh me@g2 'docker run --rm --gpus all -p 30000:30000 lmsysorg/sglang:v0.4.9 python3 -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct --port 30000 --old-scheduler 2>&1 | tail -1'", output: 'launch_server.py: error: unrecognized arguments: --old-scheduler', exit: 2 }] },
    { role: 'assistant', text: 'That flag is gone in this version. I will stop here and ask which scheduler you meant.' },
  ],
};

const SHM_AND_GARBAGE: SyntheticSession = {
  id: 'syn-shm-garbage',
  title: 'Aphrodite: /dev/shm too small, then fp16 garbage, then bf16 works',
  steps: [
    { role: 'user', text: 'Serve org/chat-9b with Aphrodite on two GPUs of rig1, port 2242.' },
    { role: 'assistant', text: 'Starting.', calls: [{ command: "ssh me@rig1 'docker run -d --name aph --gpus all -p 2242:2242 alpindale/aphrodite-openai:v0.6.5 --model org/chat-9b -tp 2 --dtype float16; sleep 60; docker logs aph 2>&1 | tail -2'", output: 'Error while creating shared memory segment /dev/shm/nccl-abc (size 9637888)\nERROR:    Engine process exited with code 1' }] },
    { role: 'assistant', text: 'Shared memory too small; adding --shm-size.', calls: [{ command: "ssh me@rig1 'docker rm -f aph; docker run -d --name aph --gpus all --shm-size 8g -p 2242:2242 alpindale/aphrodite-openai:v0.6.5 --model org/chat-9b -tp 2 --dtype float16; sleep 90; docker logs aph 2>&1 | tail -1'", output: 'INFO:     Uvicorn running on http://0.0.0.0:2242 (Press CTRL+C to quit)' }] },
    { role: 'assistant', text: 'Asking it something.', calls: [{ command: "ssh me@rig1 'curl -s localhost:2242/v1/chat/completions -d \"{}\"'", output: '{"choices":[{"message":{"content":"<pad><pad><pad><pad><pad><pad><pad><pad>"}}]}' }] },
    { role: 'assistant', text: 'Only pad tokens: fp16 overflows this model. Switching to bf16.', calls: [{ command: "ssh me@rig1 'docker rm -f aph; docker run -d --name aph --gpus all --shm-size 8g -p 2242:2242 alpindale/aphrodite-openai:v0.6.5 --model org/chat-9b -tp 2 --dtype bfloat16; sleep 90; curl -s -w \"\\nHTTP %{http_code}\\n\" localhost:2242/v1/chat/completions -d \"{}\"'", output: '{"choices":[{"message":{"content":"Hello there."}}]}\nHTTP 200' }] },
    { role: 'assistant', text: 'Works in bf16.' },
  ],
};

const PORT_AND_DRIVER_LOCALAI: SyntheticSession = {
  id: 'syn-localai-port',
  title: 'LocalAI: the port is taken, another port works',
  steps: [
    { role: 'user', text: 'Run LocalAI on cad1 with a small model, port 8080.' },
    { role: 'assistant', text: 'Starting.', calls: [{ command: "ssh me@cad1 'docker run -d --name lai --gpus all -p 8080:8080 -v ~/models:/models localai/localai:v2.20.0-cublas-cuda11'", output: 'docker: Error response from daemon: driver failed programming external connectivity on endpoint lai: Bind for 0.0.0.0:8080 failed: port is already allocated.', exit: 125 }] },
    { role: 'assistant', text: 'Port taken; using 8081.', calls: [{ command: "ssh me@cad1 'docker rm -f lai; docker run -d --name lai --gpus all -p 8081:8080 -v ~/models:/models localai/localai:v2.20.0-cublas-cuda11; sleep 20; docker logs lai 2>&1 | tail -1'", output: '9:48AM INF LocalAI API is listening! Please connect to the endpoint for API documentation. endpoint=http://0.0.0.0:8080' }] },
    { role: 'assistant', text: 'Checking.', calls: [{ command: `ssh me@cad1 '${HEALTH(8081)}'`, output: '200' }] },
    { role: 'assistant', text: 'LocalAI answers on 8081.' },
  ],
};

const POD_CHECK: SyntheticSession = {
  id: 'syn-pod-check',
  title: 'A vLLM workload checked from a curl pod: no chat template first, then a template',
  steps: [
    { role: 'user', text: 'Deploy org/base-7b with vLLM in namespace ml, chat completions.' },
    { role: 'assistant', text: 'The manifest.', calls: [{ command: '', tool: 'Write', input: { file_path: '/home/ops/k8s/vllm.yaml', content: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: base7b\nspec:\n  template:\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.9.1\n          args: ["--model", "org/base-7b"]\n' }, output: 'File created' }] },
    { role: 'assistant', text: 'Applying.', calls: [{ command: 'kubectl -n ml apply -f /home/ops/k8s/vllm.yaml', output: 'deployment.apps/base7b created' }] },
    { role: 'assistant', text: 'Checking from inside the cluster.', calls: [{ command: "kubectl -n ml run c1 --rm -i --restart=Never --image=curlimages/curl:8.11.1 -- -s -w '\\nHTTP %{http_code}\\n' http://base7b.ml.svc:80/v1/chat/completions -d '{}'", output: '{"message":"As of transformers v4.44, default chat template is no longer allowed, so you must provide a chat template if the tokenizer does not define one.","code":400}\nHTTP 400\npod "c1" deleted' }] },
    { role: 'assistant', text: 'No chat template on the base model; adding --chat-template and re-applying.', calls: [{ command: 'kubectl -n ml apply -f /home/ops/k8s/vllm.yaml', output: 'deployment.apps/base7b configured' }] },
    { role: 'assistant', text: 'Again.', calls: [{ command: "kubectl -n ml run c2 --rm -i --restart=Never --image=curlimages/curl:8.11.1 -- -s -w '\\nHTTP %{http_code}\\n' http://base7b.ml.svc:80/v1/chat/completions -d '{}'", output: '{"choices":[{"message":{"content":"hi"}}]}\nHTTP 200\npod "c2" deleted' }] },
    { role: 'assistant', text: 'Chat completions answer.' },
  ],
};

const BACKENDS: SyntheticSession = {
  id: 'syn-backends',
  title: 'llama.cpp built with HIP fails in rocBLAS; the Vulkan build serves',
  steps: [
    { role: 'user', text: 'llama-server on apu1 with org/model-gguf, ROCm build please.' },
    { role: 'assistant', text: 'Clone and build.', calls: [{ command: "ssh me@apu1 'git clone https://github.com/ggml-org/llama.cpp && cd llama.cpp && cmake -S . -B build-hip -DGGML_HIP=ON -DAMDGPU_TARGETS=gfx1150 && cmake --build build-hip -j 16 --target llama-server llama-bench'", output: '[100%] Built target llama-server' }] },
    { role: 'assistant', text: 'Benchmark first.', calls: [{ command: "ssh me@apu1 'cd llama.cpp && build-hip/bin/llama-bench -m ~/models/m.gguf -ngl 99 2>&1 | tail -2'", output: 'rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or directory for GPU arch : gfx1150\nAborted (core dumped)', exit: 134 }] },
    { role: 'assistant', text: 'No rocBLAS kernels for this GPU. Building the Vulkan backend instead.', calls: [{ command: "ssh me@apu1 'cd llama.cpp && cmake -S . -B build-vk -DGGML_VULKAN=ON && cmake --build build-vk -j 16 --target llama-server'", output: '[100%] Built target llama-server' }] },
    { role: 'assistant', text: 'Serving.', calls: [{ command: "ssh me@apu1 'cd llama.cpp && (nohup build-vk/bin/llama-server -m ~/models/m.gguf -ngl 99 --port 8090 > /tmp/l.log 2>&1 &); sleep 30; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8090/health'", output: '200' }] },
    { role: 'assistant', text: 'The Vulkan build serves.' },
  ],
};

const SESSIONS = [HOST_OOM, OLD_DRIVER, REMOVED_FLAG, SHM_AND_GARBAGE, PORT_AND_DRIVER_LOCALAI, POD_CHECK, BACKENDS];
const { tree, candidate, names } = syntheticTrees(SESSIONS, 'retrace-tree-tree11-');

describe('shapes and stacks no earlier rule had met', () => {
  it('a process the kernel killed while loading (Killed, exit 137) is rejected for host memory; a changed --gguf_path is an approach named by its folder', () => {
    expect(names(HOST_OOM.id)).toEqual(['KTransformers rejected', 'DeepSeek-V3-Q4_K_M rejected', 'IQ2_XXS rejected']);
    expect(candidate(HOST_OOM.id, 'DeepSeek-V3-Q4_K_M')?.reason).toContain('memory');
  });

  it('a driver too old for the CUDA build rejects the image with that reason', () => {
    expect(names(OLD_DRIVER.id)).toEqual(['vllm/vllm-openai:v0.9.0 rejected']);
    expect(candidate(OLD_DRIVER.id, 'vllm/vllm-openai:v0.9.0')?.reason).toContain('insufficient');
  });

  it('an option the version does not know is the reason: unrecognized arguments', () => {
    expect(candidate(REMOVED_FLAG.id, 'lmsysorg/sglang:v0.4.9')?.reason).toContain('unrecognized arguments: --old-scheduler');
  });

  it('Aphrodite is a serving stack whose --dtype defines an approach; a completion of only <pad> rejects fp16', () => {
    expect(names(SHM_AND_GARBAGE.id)).toEqual(['alpindale/aphrodite-openai:v0.6.5 accepted', '--dtype float16 rejected', '--dtype bfloat16 accepted']);
    expect(candidate(SHM_AND_GARBAGE.id, '--dtype float16')?.reason).toContain('garbage');
  });

  it('LocalAI images are a serving stack; a port already allocated, then another port, is accepted', () => {
    expect(names(PORT_AND_DRIVER_LOCALAI.id)).toEqual(['localai/localai:v2.20.0-cublas-cuda11 accepted']);
  });

  it('a curl pod (kubectl run --image=curlimages/curl -- URL) checks the workload: 400 for a missing chat template, then 200', () => {
    expect(names(POD_CHECK.id)).toEqual(['vllm/vllm-openai:v0.9.1 accepted']);
    expect(candidate(POD_CHECK.id, 'vllm/vllm-openai:v0.9.1')?.reason).toContain('200');
  });

  it('two backends of one checkout (-B build-hip -DGGML_HIP=ON, -B build-vk -DGGML_VULKAN=ON) are approaches; llama-bench tries the first and rocBLAS without a TensileLibrary rejects it', () => {
    expect(names(BACKENDS.id)).toEqual(['ggml-org/llama.cpp accepted', 'GGML_HIP rejected', 'GGML_VULKAN accepted']);
    expect(candidate(BACKENDS.id, 'GGML_HIP')?.reason).toContain('TensileLibrary');
    expect(tree(BACKENDS.id)).toBeDefined();
  });
});

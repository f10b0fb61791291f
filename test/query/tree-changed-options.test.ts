import { describe, expect, it } from 'vitest';
import type { SyntheticSession } from './helpers/synthetic-session.js';
import { syntheticTrees } from './helpers/synthetic-trees.js';

/**
 * Approaches named by what changed between launches, source builds, user-side leads and reasons
 * that quote the failure — each told by a small session of its own (none is a story of the eval
 * corpus): a launch option changed after a failure, a rebuild with another CUDA arch define, an
 * engine rebuilt with smaller limits, a shard count added, `pip install -e` of a checkout, an
 * exception no rule names, and a systemd unit written from a here-document.
 */
const MODELS_LISTED = '{"object":"list","data":[{"id":"Qwen/Qwen2.5-14B-Instruct-AWQ","object":"model"}]}';

const CONTEXT_CHANGED: SyntheticSession = {
  id: 'syn-max-model-len',
  title: 'vLLM with a shorter context',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-14B-Instruct-AWQ with vLLM on l4box (one L4).' },
    { role: 'assistant', text: 'Installing vLLM.', calls: [{ command: "ssh me@l4box 'python3 -m venv ~/vl && ~/vl/bin/pip install vllm==0.8.5'", output: 'Successfully installed vllm-0.8.5 torch-2.6.0' }] },
    {
      role: 'assistant', text: 'Starting with the full context.',
      calls: [{
        command: "ssh me@l4box '~/vl/bin/vllm serve Qwen/Qwen2.5-14B-Instruct-AWQ --quantization awq --max-model-len 32768 --port 8000 2>&1 | tail -3'", exit: 1,
        output: "ValueError: To serve at least one request with the models's max seq len (32768), (6.00 GiB KV cache is needed, which is larger than the available KV cache memory (2.10 GiB).",
      }],
    },
    { role: 'assistant', text: 'The KV cache does not fit 32k. Shorter context.', calls: [{ command: "ssh me@l4box 'nohup ~/vl/bin/vllm serve Qwen/Qwen2.5-14B-Instruct-AWQ --quantization awq --max-model-len=8192 --port 8000 > ~/vllm.log 2>&1 &'", output: '' }] },
    { role: 'assistant', text: 'Checking.', calls: [{ command: "ssh me@l4box 'sleep 60; curl -s localhost:8000/v1/models'", output: MODELS_LISTED }] },
    { role: 'assistant', text: 'Serving with an 8k context.' },
  ],
};

const SHARDS_ADDED: SyntheticSession = {
  id: 'syn-num-shard',
  title: 'TGI sharded over two GPUs',
  steps: [
    { role: 'user', text: 'Serve mistralai/Mistral-Small-24B-Instruct-2501 with TGI on rig2 (two RTX 4090s). Keep ollama as a fallback.' },
    { role: 'assistant', text: 'One GPU first.', calls: [{ command: "ssh me@rig2 'docker run -d --name tgi --gpus all -p 8080:80 ghcr.io/huggingface/text-generation-inference:3.0.1 --model-id mistralai/Mistral-Small-24B-Instruct-2501'", output: 'a1' }] },
    {
      role: 'assistant', text: 'Logs.',
      calls: [{ command: "ssh me@rig2 'sleep 90; docker logs tgi 2>&1 | tail -3'", output: 'ERROR text_generation_launcher: Shard 0 failed to start\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\nError: ShardCannotStart' }],
    },
    { role: 'assistant', text: 'Sharding over both GPUs.', calls: [{ command: "ssh me@rig2 'docker rm -f tgi; docker run -d --name tgi --gpus all -p 8080:80 ghcr.io/huggingface/text-generation-inference:3.0.1 --model-id mistralai/Mistral-Small-24B-Instruct-2501 --num-shard 2'", output: 'b2' }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh me@rig2 'sleep 120; curl -s -o /dev/null -w \"%{http_code}\" localhost:8080/health'", output: '200' }] },
    { role: 'assistant', text: 'TGI answers.' },
  ],
};

const ARCH_REBUILD: SyntheticSession = {
  id: 'syn-cuda-arch-rebuild',
  title: 'llama.cpp rebuilt for the Orin',
  steps: [
    { role: 'user', text: 'Get llama.cpp serving a Qwen2.5-7B-Instruct GGUF on the Jetson (orin1).' },
    { role: 'assistant', text: 'Building with CUDA.', calls: [{ command: "ssh me@orin1 'cd ~/llama.cpp && cmake -B build -DGGML_CUDA=ON && cmake --build build -j6 --target llama-server 2>&1 | tail -1'", output: '[100%] Built target llama-server' }] },
    {
      role: 'assistant', text: 'Starting.',
      calls: [{ command: "ssh me@orin1 '~/llama.cpp/build/bin/llama-server -m ~/models/qwen2.5-7b-instruct-q4_k_m.gguf -ngl 99 --port 8080 2>&1 | tail -2'", exit: 1, output: 'CUDA error: no kernel image is available for execution on the device\n  current device: 0' }],
    },
    { role: 'assistant', text: 'Rebuilding for sm_87.', calls: [{ command: "ssh me@orin1 'cd ~/llama.cpp && rm -rf build && cmake -B build -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=87 && cmake --build build -j6 --target llama-server 2>&1 | tail -1'", output: '[100%] Built target llama-server' }] },
    { role: 'assistant', text: 'Again.', calls: [{ command: "ssh me@orin1 'nohup ~/llama.cpp/build/bin/llama-server -m ~/models/qwen2.5-7b-instruct-q4_k_m.gguf -ngl 99 --port 8080 > ~/ls.log 2>&1 & sleep 20; curl -s localhost:8080/health'", output: '{"status":"ok"}' }] },
    { role: 'assistant', text: 'llama-server answers.' },
  ],
};

const ENGINE_LIMITS: SyntheticSession = {
  id: 'syn-engine-limits',
  title: 'A TensorRT-LLM engine with smaller limits',
  steps: [
    { role: 'user', text: 'Build a TensorRT-LLM engine for Mistral-7B-Instruct on l4a and serve it.' },
    {
      role: 'assistant', text: 'Convert and build.',
      calls: [
        { command: "ssh ops@l4a 'docker exec trt python3 /app/examples/llama/convert_checkpoint.py --model_dir /models/m7 --output_dir /ckpt/m7 --dtype float16'", output: 'Total time of converting checkpoints: 00:01:10' },
        { command: "ssh ops@l4a 'docker exec trt trtllm-build --checkpoint_dir /ckpt/m7 --output_dir /engines/b256 --max_batch_size 256 --max_num_tokens 16384 2>&1 | tail -1'", exit: 1, output: '[TRT] [E] [defaultAllocator.cpp::allocate::31] Error Code 1: Cuda Runtime (out of memory)' },
      ],
    },
    {
      role: 'assistant', text: 'Smaller limits.',
      calls: [
        { command: "ssh ops@l4a 'docker exec trt trtllm-build --checkpoint_dir /ckpt/m7 --output_dir /engines/b64 --max_batch_size 64 --max_num_tokens 4096 2>&1 | tail -1'", output: '[TensorRT-LLM] [I] Total time of building all engines: 00:04:11' },
        { command: "ssh ops@l4a 'docker exec -d trt trtllm-serve /engines/b64 --tokenizer /models/m7 --port 8000; sleep 60; curl -s -o /dev/null -w \"%{http_code}\" localhost:8000/health'", output: '200' },
      ],
    },
    { role: 'assistant', text: 'The engine serves.' },
  ],
};

const EDITABLE: SyntheticSession = {
  id: 'syn-editable-install',
  title: 'SGLang from a checkout',
  steps: [
    { role: 'user', text: 'Serve deepseek-ai/DeepSeek-V2-Lite with SGLang on amd1 (MI300X).' },
    {
      role: 'assistant', text: 'The image first.',
      calls: [{ command: "ssh ops@amd1 'docker run --rm --device /dev/kfd lmsysorg/sglang:v0.4.6 python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V2-Lite --port 30000 2>&1 | tail -2'", exit: 1, output: 'Traceback (most recent call last):\nRuntimeError: Found no NVIDIA driver on your system.' }],
    },
    { role: 'assistant', text: 'Installing the checkout.', calls: [{ command: "ssh ops@amd1 'cd ~/sglang && pip install -e \"python[all_hip]\" 2>&1 | tail -1'", output: 'Successfully installed sglang-0.4.6.post2' }] },
    { role: 'assistant', text: 'Launching.', calls: [{ command: "ssh ops@amd1 'cd ~/sglang && nohup python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V2-Lite --port 30000 > s.log 2>&1 & sleep 120; curl -s -o /dev/null -w \"%{http_code}\" localhost:30000/health'", output: '200' }] },
    { role: 'assistant', text: 'The source build serves.' },
  ],
};

const UNIT = '[Unit]\nDescription=vLLM\n[Service]\nExecStart=/opt/vllm/venv/bin/vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000\nRestart=always\n[Install]\nWantedBy=multi-user.target';

const SYSTEMD_UNIT: SyntheticSession = {
  id: 'syn-systemd-unit',
  title: 'vLLM as a systemd service behind nginx',
  steps: [
    { role: 'user', text: 'Run vLLM as a systemd service on the VM (ops@10.0.0.5) serving meta-llama/Llama-3.1-8B-Instruct behind nginx.' },
    { role: 'assistant', text: 'Installing.', calls: [{ command: "ssh ops@10.0.0.5 'sudo python3 -m venv /opt/vllm/venv && sudo /opt/vllm/venv/bin/pip install vllm==0.8.5 | tail -1'", output: 'Successfully installed vllm-0.8.5' }] },
    {
      role: 'assistant', text: 'The unit.',
      calls: [{ command: `ssh ops@10.0.0.5 'sudo tee /etc/systemd/system/vllm.service >/dev/null <<EOF\n${UNIT}\nEOF\nsudo systemctl daemon-reload && sudo systemctl enable --now vllm'`, output: 'Created symlink /etc/systemd/system/multi-user.target.wants/vllm.service' }],
    },
    {
      role: 'assistant', text: 'Its log.',
      calls: [{ command: "ssh ops@10.0.0.5 'sleep 30; sudo journalctl -u vllm --no-pager | tail -2'", output: 'OSError: You are trying to access a gated repo.\n401 Client Error. Cannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json.' }],
    },
    { role: 'assistant', text: 'Gated: logging in, restarting.', calls: [{ command: "ssh ops@10.0.0.5 'sudo huggingface-cli login --token $HF_TOKEN && sudo systemctl restart vllm'", output: 'Login successful' }] },
    { role: 'assistant', text: 'Through nginx.', calls: [{ command: "curl -s -o /dev/null -w '%{http_code}' http://10.0.0.5/v1/models", output: '200' }] },
    { role: 'assistant', text: 'It answers through nginx.' },
  ],
};

const SERVED_ALIKE: SyntheticSession = {
  id: 'syn-served-alike',
  title: 'LMDeploy: fp16 weights, then AWQ weights served under the same name',
  steps: [
    { role: 'user', text: 'Serve Qwen2.5-32B-Instruct with LMDeploy on one A100-40GB (ops@gpu4).' },
    { role: 'assistant', text: 'Installing.', calls: [{ command: "ssh ops@gpu4 'python3 -m venv /opt/lmd && /opt/lmd/bin/pip install lmdeploy==0.7.3'", output: 'Successfully installed lmdeploy-0.7.3' }] },
    { role: 'assistant', text: 'fp16 first.', calls: [{ command: "ssh ops@gpu4 'nohup /opt/lmd/bin/lmdeploy serve api_server /data/Qwen2.5-32B-Instruct --backend turbomind --server-port 23333 > /data/l.log 2>&1 &'", output: '' }] },
    { role: 'assistant', text: 'Log.', calls: [{ command: "ssh ops@gpu4 'sleep 60; tail -2 /data/l.log'", output: 'RuntimeError: [TM][ERROR] CUDA runtime error: out of memory /lmdeploy/src/turbomind/utils/allocator.h:231' }] },
    { role: 'assistant', text: 'AWQ weights under the same served name.', calls: [{ command: "ssh ops@gpu4 'nohup /opt/lmd/bin/lmdeploy serve api_server /data/Qwen2.5-32B-Instruct-AWQ --backend turbomind --model-format awq --model-name Qwen2.5-32B-Instruct --server-port 23333 > /data/l.log 2>&1 & sleep 60; curl -s -o /dev/null -w %{http_code} localhost:23333/v1/models'", output: '200' }] },
    { role: 'assistant', text: 'AWQ serves.' },
  ],
};

const SESSIONS = [CONTEXT_CHANGED, SHARDS_ADDED, ARCH_REBUILD, ENGINE_LIMITS, EDITABLE, SYSTEMD_UNIT, SERVED_ALIKE];
const { tree, candidate, names } = syntheticTrees(SESSIONS, 'retrace-tree-options-');

describe('an option changed between launches is an approach, named as typed', () => {
  it('--max-model-len 32768 is rejected on the KV cache, --max-model-len 8192 accepted, under the installed package', () => {
    expect(names(CONTEXT_CHANGED.id)).toEqual(['vllm==0.8.5 accepted', '--max-model-len 32768 rejected', '--max-model-len 8192 accepted']);
    expect(candidate(CONTEXT_CHANGED.id, '--max-model-len 32768')?.reason).toContain('KV cache');
    expect(candidate(CONTEXT_CHANGED.id, '--max-model-len 8192')?.reason).toContain('HTTP 200');
    expect(candidate(CONTEXT_CHANGED.id, '--max-model-len 8192')?.parent).toBe('vllm==0.8.5');
  });

  it('a shard count added after an OOM is --num-shard 2 (not tp2); the user\'s fallback is an untested lead', () => {
    expect(names(SHARDS_ADDED.id)).toEqual([
      'ghcr.io/huggingface/text-generation-inference:3.0.1 accepted', '--num-shard 2 accepted', 'ollama untested',
    ]);
  });

  it('an engine rebuilt with smaller limits: each build named by its first changed option; the converter is neither', () => {
    const approaches = tree(ENGINE_LIMITS.id)?.candidates.filter((c) => c.kind === 'approach').map((c) => `${c.name} ${c.verdict}`);
    expect(approaches).toEqual(['--max_batch_size 256 rejected', '--max_batch_size 64 accepted']);
    expect(candidate(ENGINE_LIMITS.id, '--max_batch_size 256')?.reason).toContain('out of memory');
  });
});

describe('weights named alike', () => {
  it('a path and the name other weights are served under tell nothing apart: the AWQ launch is named by its option, the fp16 one is the package itself', () => {
    expect(names(SERVED_ALIKE.id)).toEqual(['lmdeploy==0.7.3 accepted', '--model-format awq accepted']);
  });
});

describe('source builds', () => {
  it('a cmake build of a checkout the session did not clone is the framework (nothing else of it was tried); a rebuild with another arch define is an approach', () => {
    expect(names(ARCH_REBUILD.id)).toEqual(['llama.cpp accepted', '-DCMAKE_CUDA_ARCHITECTURES=87 accepted']);
    // A status body from a health endpoint is HTTP 200.
    expect(candidate(ARCH_REBUILD.id, '-DCMAKE_CUDA_ARCHITECTURES=87')?.reason).toContain('200');
  });

  it('pip install -e of a checkout is a source build, "from source" beside the image of the same framework, which is rejected with the exception line', () => {
    expect(names(EDITABLE.id)).toEqual(['lmsysorg/sglang:v0.4.6 rejected', 'SGLang from source accepted']);
    expect(candidate(EDITABLE.id, 'lmsysorg/sglang:v0.4.6')?.reason).toContain('RuntimeError: Found no NVIDIA driver on your system.');
  });
});

describe('a systemd unit the session wrote', () => {
  it('starting it launches its ExecStart on that host: the gated failure in its journal is fixed by a login, so the package is accepted through nginx', () => {
    expect(names(SYSTEMD_UNIT.id)).toEqual(['vllm==0.8.5 accepted']);
    expect(candidate(SYSTEMD_UNIT.id, 'vllm==0.8.5')?.reason).toContain('200');
    expect(candidate(SYSTEMD_UNIT.id, 'vllm==0.8.5')?.evidence.map((e) => e.kind)).toEqual(['install', 'serve', 'inspect', 'serve', 'health']);
  });
});

import { describe, expect, it } from 'vitest';
import type { SyntheticSession } from './helpers/synthetic-session.js';
import { syntheticTrees } from './helpers/synthetic-trees.js';

/**
 * The eleventh round's rules, each on a session of its own (none is a story of the eval corpus):
 * - another model (not another build of the same one) names the approach it was run with, whatever else changed;
 * - a launchd service the session wrote and started runs its property list's command; a helm release runs the image
 *   its values files and `--set` name; a build in a dev container runs where `docker exec -w DIR` says, and a compiler
 *   killed by signal 9 fails it;
 * - "give X a try" proposes X, "give NaNs" does not; a plural acronym, a service manager, an option that only
 *   routes (a host, a port, a forced download), a stack named as what is there ("under vLLM 0.9.2") and a name
 *   that is an option's value are no leads; "X source build" and "X from source" are one lead;
 * - a pasted shell session is no part of the request, and a `Goal:` line starts it;
 * - a layout is a word of its own (`TP 4`), not a part of a profile's name (`…-fp8-tp2-throughput`, "the tp4 profile").
 */
const SERVE = (model: string, tp: number): string =>
  `ssh me@w1 'docker rm -f v; docker run -d --name v --gpus all -p 8000:8000 vllm/vllm-openai:v0.9.2 --model ${model} --tensor-parallel-size ${tp}'`;
const RATE = "ssh me@w1 'sleep 120; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8000/health; python3 bench.py --port 8000 | tail -1'";

/** Two models compared, the second on one GPU: the approach is the model, not the layout that changed with it. */
const OTHER_MODEL: SyntheticSession = {
  id: 'syn-other-model',
  title: 'A 70B too slow on two GPUs, then a 32B on one',
  steps: [
    { role: 'user', text: 'Serve a chat model with vLLM on w1 (two L40S), port 8000. It needs 30 tok/s per user at least.' },
    { role: 'assistant', text: 'Llama 3.3 70B AWQ across both GPUs first.', calls: [{ command: SERVE('casperhansen/llama-3.3-70b-instruct-awq', 2), output: 'a1' }] },
    { role: 'assistant', text: 'Check.', calls: [{ command: RATE, output: '200\nmean decode: 14.2 tok/s per user' }] },
    { role: 'assistant', text: '14.2 tok/s per user: too slow for you. Qwen2.5 32B AWQ fits one GPU.', calls: [{ command: SERVE('Qwen/Qwen2.5-32B-Instruct-AWQ', 1), output: 'a2' }] },
    { role: 'assistant', text: 'Check.', calls: [{ command: RATE, output: '200\nmean decode: 38.9 tok/s per user' }] },
    { role: 'assistant', text: '38.9 tok/s per user with the 32B. Keeping it.' },
  ],
};

const PLIST = `<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
  <key>Label</key><string>com.me.llama</string>
  <key>EnvironmentVariables</key>
  <dict><key>LLAMA_CACHE</key><string>/Users/me/models</string></dict>
  <key>ProgramArguments</key>
  <array>
    <string>/opt/homebrew/bin/llama-server</string>
    <string>-m</string><string>/Users/me/models/Llama-3.1-8B-Instruct-Q8_0.gguf</string>
    <string>--port</string><string>8080</string>
  </array>
  <key>RunAtLoad</key><true/>
</dict>
</plist>
`;

/** A launch agent written, bootstrapped and checked: what it runs is the candidate. */
const LAUNCH_AGENT: SyntheticSession = {
  id: 'syn-launch-agent',
  title: 'llama-server as a launch agent on a Mac',
  steps: [
    { role: 'user', text: 'Keep Llama-3.1-8B running with llama.cpp on this Mac on port 8080, also after a reboot.' },
    { role: 'assistant', text: 'A launch agent.', calls: [{ command: '', tool: 'Write', input: { file_path: '/Users/me/Library/LaunchAgents/com.me.llama.plist', content: PLIST }, output: 'File created' }] },
    { role: 'assistant', text: 'Loading it.', calls: [{ command: 'launchctl bootstrap gui/501 ~/Library/LaunchAgents/com.me.llama.plist', output: '' }] },
    { role: 'assistant', text: 'Check.', calls: [{ command: 'sleep 20; curl -s -o /dev/null -w "%{http_code}\\n" localhost:8080/health', output: '200' }] },
    { role: 'assistant', text: 'Serving on :8080 and started at login. Say if it should be a LaunchDaemon instead, to run before anyone logs in.' },
  ],
};

const VLLM = (args: string): string => `ssh me@g3 'source ~/venvs/v/bin/activate && vllm serve Qwen/Qwen3-8B --port 8000 ${args}'`;

/** Prose around a working vLLM that names many things and proposes only two. */
const NOT_LEADS: SyntheticSession = {
  id: 'syn-not-leads',
  title: 'vLLM after a NaN run, with options, a venv and a fallback talked about',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen3-8B with vLLM on g3, port 8000.' },
    { role: 'assistant', text: 'Starting it in the existing venv.', calls: [{ command: VLLM('--dtype float16'), exit: 1, output: 'ValueError: The model produced NaNs in the logits with dtype float16.' }] },
    {
      role: 'assistant',
      text: 'In float16 the model gives NaNs on these GPUs. bfloat16 instead. If the weights are broken we could add `--force-download` to the download, '
        + 'and set `OLLAMA_HOST=0.0.0.0:11434` later for the other box. Upgrading torch is out: torch would be downgraded under vLLM 0.9.2, the vLLM 0.9.2 venv stays as it is.',
      calls: [{ command: VLLM('--dtype bfloat16'), output: 'INFO:     Application startup complete.' }],
    },
    { role: 'assistant', text: 'Check.', calls: [{ command: "ssh me@g3 'curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8000/health'", output: '200' }] },
    {
      role: 'assistant',
      text: 'Serving in bfloat16. If it misbehaves again we could give mistral.rs a try, or use `XINFERENCE_MODEL_SRC=modelscope` so that xinference fetches from ModelScope. '
        + 'Fallback: a vLLM source build. Later we could also build vLLM from source against the newer torch.',
    },
  ],
};

const PASTED = [
  'I tried this myself first:',
  '',
  '(serve) me@gpu-07:~$ pip install vllm==0.10.1',
  'ERROR: Could not find a version that satisfies the requirement torch==2.7.1',
  '(serve) me@gpu-07:~$ nvidia-smi -L',
  'GPU 0: NVIDIA L40S (UUID: GPU-1234)',
  '',
  'Goal: serve meta-llama/Llama-3.1-8B-Instruct with vLLM on gpu-07, port 8000, behind the existing nginx.',
].join('\n');

/** A request that opens with a pasted shell session and states its goal on a labelled line. */
const PASTED_SESSION: SyntheticSession = {
  id: 'syn-pasted-session',
  title: 'A pasted pip failure, then the goal',
  steps: [
    { role: 'user', text: PASTED },
    { role: 'assistant', text: 'Installing vLLM.', calls: [{ command: "ssh me@gpu-07 'python3 -m venv ~/v && ~/v/bin/pip install vllm==0.10.2'", output: 'Successfully installed vllm-0.10.2' }] },
    { role: 'assistant', text: 'Serving.', calls: [{ command: "ssh me@gpu-07 'nohup ~/v/bin/vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000 > v.log 2>&1 & sleep 90; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8000/health'", output: '200' }] },
    { role: 'assistant', text: 'vLLM 0.10.2 serves on :8000.' },
  ],
};

const MANIFEST = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: llama-nim
spec:
  replicas: 1
  template:
    spec:
      containers:
        - name: nim
          image: nvcr.io/nim/meta/llama-3.1-70b-instruct:1.3.3
          env:
            - name: NIM_MODEL_PROFILE
              value: tensorrt_llm-h100-fp8-tp2-throughput
          resources:
            limits:
              nvidia.com/gpu: 2
`;
/** A NIM deployment on Kubernetes whose pinned profile does not fit; profiles named by their layout are no layout leads. */
const NIM_K8S: SyntheticSession = {
  id: 'syn-nim-k8s-profile',
  title: 'NIM on k8s',
  steps: [
    { role: 'user', text: 'Deploy the llama-3.1-70b-instruct NIM on our k8s cluster (namespace llm) with 2 H100 PCIe.' },
    { role: 'assistant', text: 'Writing the deployment.', calls: [{ command: '', tool: 'Write', input: { file_path: '/home/ops/k8s/nim.yaml', content: MANIFEST }, output: 'File created' }] },
    { role: 'assistant', text: 'Applying.', calls: [{ command: 'kubectl -n llm apply -f k8s/nim.yaml', output: 'deployment.apps/llama-nim created' }] },
    { role: 'assistant', text: 'Watching.', calls: [{ command: 'sleep 240; kubectl -n llm get pods', output: 'NAME                         READY   STATUS             RESTARTS      AGE\nllama-nim-6d5f8c7b9d-x2k4p   0/1     CrashLoopBackOff   3 (20s ago)   4m' }] },
    { role: 'assistant', text: 'Logs.', calls: [{ command: 'kubectl -n llm logs deploy/llama-nim --previous | tail -5', output: 'INFO 2026-03-01 Selected profile: tensorrt_llm-h100-fp8-tp2-throughput\nERROR 2026-03-01 Profile tensorrt_llm-h100-fp8-tp2-throughput is not compatible with the detected hardware: NVIDIA H100 PCIe\nRuntimeError: Profile not compatible' }] },
    { role: 'assistant', text: 'The pinned profile `tensorrt_llm-h100-fp8-tp2-throughput` is for SXM H100s and does not fit the PCIe cards. The tp4 PCIe profile would need four GPUs, which the node does not have free. I will stop here; nothing is serving.' },
  ],
};
const VALUES = `image:
  repository: nvcr.io/nim/meta/llama-3.1-8b-instruct
  tag: "1.3.3"
model:
  ngcAPISecret: ngc-api
resources:
  limits:
    nvidia.com/gpu: 1
`;
/** A NIM deployed with its helm chart from a values file, then upgraded to another tag with `--set`. */
const HELM: SyntheticSession = {
  id: 'syn-helm-release',
  title: 'NIM via helm',
  steps: [
    { role: 'user', text: 'Deploy the llama-3.1-8b-instruct NIM with its helm chart on our cluster, namespace nim.' },
    { role: 'assistant', text: 'Values first.', calls: [{ command: '', tool: 'Write', input: { file_path: '/home/ops/nim/values.yaml', content: VALUES }, output: 'File created' }] },
    { role: 'assistant', text: 'Installing.', calls: [{ command: 'cd /home/ops/nim && helm install my-nim nim-llm-1.3.0.tgz -n nim -f values.yaml', output: 'NAME: my-nim\nSTATUS: deployed\nREVISION: 1' }] },
    { role: 'assistant', text: 'Watching.', calls: [{ command: 'sleep 180; kubectl -n nim get pods', output: 'NAME                READY   STATUS             RESTARTS   AGE\nmy-nim-0            0/1     CrashLoopBackOff   4          3m' }] },
    { role: 'assistant', text: 'Logs.', calls: [{ command: 'kubectl -n nim logs my-nim-0 | tail -3', output: 'ERROR Could not find a profile that is currently runnable with the detected hardware. Please check the system information below and/or refer to the supported models list.\nSYSTEM INFO: Free GPUs: <None>' }] },
    { role: 'assistant', text: 'No runnable profile for these GPUs in 1.3.3. Upgrading to 1.8.0, which adds L40S profiles.', calls: [{ command: 'helm upgrade my-nim nim-llm-1.3.0.tgz -n nim --reuse-values --set image.tag=1.8.0', output: 'Release "my-nim" has been upgraded. Happy Helming!\nREVISION: 2' }] },
    { role: 'assistant', text: 'Check.', calls: [{ command: 'sleep 300; kubectl -n nim port-forward svc/my-nim 8000:8000 & sleep 3; curl -s -o /dev/null -w "%{http_code}\\n" localhost:8000/v1/health/ready', output: '200' }] },
    { role: 'assistant', text: 'Ready on 1.8.0.' },
  ],
};
/** TensorRT-LLM built in a PyTorch dev container (`docker exec -w`), the compiler OOM-killed behind a tail, then the release image (the dev image is the candidate, as readers name it). */
const BUILT_IN_BASE: SyntheticSession = {
  id: 'syn-built-in-base',
  title: 'trtllm built in a base container',
  steps: [
    { role: 'user', text: 'Build TensorRT-LLM v0.19.0 from source on g4 (4x L40S) and serve Llama-3.3-70B with trtllm-serve.' },
    { role: 'assistant', text: 'A dev container.', calls: [{ command: "ssh me@g4 'docker run -d --name trtllm-dev --gpus all -v /src:/src nvcr.io/nvidia/pytorch:25.03-py3 sleep infinity'", output: 'abc123' }] },
    { role: 'assistant', text: 'Clone.', calls: [{ command: "ssh me@g4 'cd /src && git clone -b v0.19.0 https://github.com/NVIDIA/TensorRT-LLM.git && cd TensorRT-LLM && git lfs pull'", output: 'Cloning into TensorRT-LLM...' }] },
    { role: 'assistant', text: 'Build.', calls: [{ command: "ssh me@g4 'docker exec -w /src/TensorRT-LLM trtllm-dev python3 ./scripts/build_wheel.py --cuda_architectures \"89-real\" --clean 2>&1 | tail -3'", output: 'nvcc error   : \'cicc\' died due to signal 9 (Kill signal)\nninja: build stopped: subcommand failed.\nsubprocess.CalledProcessError: Command \'cmake --build . --config Release --parallel 64\' returned non-zero exit status 1.' }] },
    { role: 'assistant', text: 'The compiler was killed for memory. The prebuilt release container instead.', calls: [{ command: "ssh me@g4 'docker pull nvcr.io/nvidia/tensorrt-llm/release:0.19.0'", output: 'Status: Downloaded newer image' }] },
    { role: 'assistant', text: 'Serve.', calls: [{ command: "ssh me@g4 'docker run -d --gpus all -p 8000:8000 nvcr.io/nvidia/tensorrt-llm/release:0.19.0 trtllm-serve nvidia/Llama-3.3-70B-Instruct-FP8 --tp_size 4; sleep 600; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8000/health'", output: '200' }] },
    { role: 'assistant', text: 'Serving.' },
  ],
};
const trees = syntheticTrees([OTHER_MODEL, LAUNCH_AGENT, NOT_LEADS, PASTED_SESSION, NIM_K8S, HELM, BUILT_IN_BASE], 'retrace-tree11r-');

describe('another model names its approach', () => {
  it('the model, not the layout that changed with it', () => {
    const approaches = trees.tree('syn-other-model')?.candidates.filter((c) => c.kind === 'approach').map((c) => `${c.name} ${c.verdict}`);
    expect(approaches).toEqual(['casperhansen/llama-3.3-70b-instruct-awq rejected', 'Qwen/Qwen2.5-32B-Instruct-AWQ accepted']);
  });
});

describe('a launchd service runs its property list', () => {
  it('the server a bootstrapped launch agent starts is the candidate, and the service manager named after it is no lead', () => {
    expect(trees.names('syn-launch-agent')).toEqual(['llama.cpp accepted']);
  });
});

describe('a helm release runs the image its values name', () => {
  it('the tag of a values file, then the tag an upgrade sets, each judged by the pods and logs after it', () => {
    expect(trees.names('syn-helm-release')).toEqual(['nvcr.io/nim/meta/llama-3.1-8b-instruct:1.3.3 rejected', 'nvcr.io/nim/meta/llama-3.1-8b-instruct:1.8.0 accepted']);
    expect(trees.candidate('syn-helm-release', 'nvcr.io/nim/meta/llama-3.1-8b-instruct:1.3.3')?.reason).toContain('Could not find a profile');
  });
});

describe('a build in a dev container', () => {
  it('runs in the directory `docker exec -w` names, and a compiler killed by signal 9 fails it behind a tail', () => {
    expect(trees.names('syn-built-in-base')).toEqual(['nvcr.io/nvidia/pytorch:25.03-py3 rejected', 'nvcr.io/nvidia/tensorrt-llm/release:0.19.0 accepted']);
    expect(trees.candidate('syn-built-in-base', 'nvcr.io/nvidia/pytorch:25.03-py3')?.reason).toContain('cicc');
    expect(trees.candidate('syn-built-in-base', 'nvcr.io/nvidia/pytorch:25.03-py3')?.framework).toBe('trtllm');
  });
});

describe('leads are software proposed to run', () => {
  it('"give X a try", an option and a source build are leads; NaNs, routing options, a stack in place and an option value are not; two spellings of a source build are one', () => {
    expect(trees.names('syn-not-leads').filter((n) => n.endsWith(' untested'))).toEqual(['mistral.rs untested', 'XINFERENCE_MODEL_SRC=modelscope untested', 'vLLM source build untested']);
  });
});

describe('a layout is said in words of its own', () => {
  it('a profile whose name holds its layout (`…-tp2-throughput`, "the tp4 profile") proposes no layout', () => {
    expect(trees.names('syn-nim-k8s-profile')).toEqual(['nvcr.io/nim/meta/llama-3.1-70b-instruct:1.3.3 rejected']);
    expect(trees.candidate('syn-nim-k8s-profile', 'nvcr.io/nim/meta/llama-3.1-70b-instruct:1.3.3')?.reason).toContain('not compatible');
  });
});

describe('the goal is what the user asked in their own words', () => {
  it('a pasted shell session is left out and the labelled goal line starts the request', () => {
    expect(trees.tree('syn-pasted-session')?.goal).toMatch(/^serve meta-llama\/Llama-3\.1-8B-Instruct with vLLM on gpu-07/);
  });
});

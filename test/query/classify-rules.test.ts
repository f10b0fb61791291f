import { describe, expect, it } from 'vitest';
import { classifyCommands, classifyTool } from '../../src/query/classify/classify-call.js';
import { SessionContext } from '../../src/query/classify/context.js';
import { RULES } from '../../src/query/classify/rules.js';
import type { RuleMatch } from '../../src/query/classify/view.js';
import { parseCommandLine } from '../../src/query/shell/index.js';

/** Every action a command line yields, as the rules classify it (with the files the session wrote, if any). */
function classify(line: string, tool = 'bash', files: Record<string, string> = {}, workload: string | null = null, installed: readonly string[] = []): RuleMatch[] {
  const context = new SessionContext();
  for (const spec of installed) context.packageInstalled(spec.split(/[=<>@]/)[0] as string, spec);
  for (const [path, content] of Object.entries(files)) context.files.observeTool('Write', JSON.stringify({ file_path: path, content }), 'ok');
  if (workload) context.rolledTo(workload);
  return classifyCommands(parseCommandLine(line), tool, '{}', context).map((c) => c.match);
}

const COMPOSE = {
  '/home/eva/stack/docker-compose.yml': [
    'services:',
    '  embeddings:',
    '    image: vllm/vllm-openai:v0.7.3',
    '  gemma3:',
    '    image: vllm/vllm-openai:v0.8.2',
    '    ports: ["8001:8000"]',
    '    command: --model google/gemma-3-27b-it --tensor-parallel-size 2 --max-model-len 32768',
  ].join('\n'),
};
const MANIFEST = {
  '/home/omar/gitops/apps/nim/deployment.yaml': [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata: {name: nim}',
    'spec:',
    '  template:',
    '    spec:',
    '      containers:',
    '        - name: nim',
    '          image: nvcr.io/nim/meta/llama-3.1-8b-instruct:1.0.0',
  ].join('\n'),
};

interface Example {
  /** A shell command line, or a tool call (tool + input) when `tool` is set and `line` is empty. */
  line: string;
  tool?: string;
  input?: string;
  /** What the action matched by this rule must show; `null` for rules that make a command not an action. */
  expect: Partial<RuleMatch> | null;
  /** For `expect: null`: how many actions the whole line still yields (the commands the rule did not swallow). */
  actions?: number;
  /** Files the session wrote before the command (compose files, manifests). */
  files?: Record<string, string>;
  /** The image the session's Kubernetes workload was last rolled to. */
  workload?: string;
  /** Packages of no known framework the session installed before the command (specs as typed). */
  installed?: string[];
}

/** At least one positive example per rule; several also show what the rule must not claim. */
const EXAMPLES: Record<string, Example[]> = {
  'web-search-tool': [
    { line: '', tool: 'exa_web_search_exa', input: '{"query":"sglang spark image","numResults":5}', expect: { kind: 'search', subject: 'sglang spark image' } },
    { line: '', tool: 'WebSearch', input: '{"query":"nvcr.io vllm arm64"}', expect: { kind: 'search', subject: 'nvcr.io vllm arm64' } },
    { line: '', tool: 'web_search_call', input: '{"type":"search","query":"sglang nnodes"}', expect: { kind: 'search', subject: 'sglang nnodes' } },
  ],
  'web-fetch-tool': [
    { line: '', tool: 'exa_web_fetch_exa', input: '{"urls":["https://hub.docker.com/r/scitrera/dgx-spark-sglang"]}', expect: { kind: 'fetch', subject: 'https://hub.docker.com/r/scitrera/dgx-spark-sglang' } },
    { line: '', tool: 'WebFetch', input: '{"url":"https://docs.nvidia.com/x.html","prompt":"?"}', expect: { kind: 'fetch', subject: 'https://docs.nvidia.com/x.html' } },
    { line: '', tool: 'webfetch', input: '{"url":"https://example.org"}', expect: { kind: 'fetch' } },
  ],
  'pipe-filter': [
    { line: 'docker pull a/b:1 2>&1 | tail -3 | grep Status', expect: null, actions: 1 },
    { line: 'curl -s localhost:8000/v1/models | python3 -m json.tool', expect: null, actions: 1 },
  ],
  'shell-noise': [
    { line: 'echo started; sleep 10; cd /srv; export A=1; [ -f x ]', expect: null, actions: 0 },
  ],
  'container-serve': [
    { line: 'docker run -d --name gptoss -p 8000:8000 nvcr.io/nvidia/vllm:25.11-py3 vllm serve openai/gpt-oss-120b --port 8000', expect: { kind: 'serve', subject: 'nvcr.io/nvidia/vllm:25.11-py3', model: 'openai/gpt-oss-120b', port: 8000, service: 'gptoss', framework: 'vllm' } },
    { line: 'docker run --rm --gpus all img:1 python3 -m sglang.launch_server --model-path /m --tp 8 --port 30000', expect: { kind: 'serve', subject: 'img:1', config: '--tp 8', port: 30000, framework: 'sglang' } },
    { line: 'docker run --gpus all -p 8080:80 ghcr.io/huggingface/text-generation-inference:2.4.1 --model-id mistralai/Mixtral-8x7B-v0.1 --num-shard 4', expect: { kind: 'serve', model: 'mistralai/Mixtral-8x7B-v0.1', config: '--num-shard 4', port: 8080 } },
    { line: 'docker run -d redis:7', expect: { kind: 'serve', subject: 'redis:7' } },
  ],
  'container-cluster': [
    { line: 'docker run -d --name head --net=host img:2 ray start --head --port 6379 --block', expect: { kind: 'cluster', subject: 'img:2', service: 'head' } },
  ],
  'container-build': [
    { line: 'docker run --rm --gpus all -v /srv/trt:/trt nvcr.io/nvidia/tensorrt-llm/release:0.18.2 trtllm-build --checkpoint_dir /trt/ckpt --output_dir /trt/engine --max_num_tokens 8192', expect: { kind: 'build', subject: 'nvcr.io/nvidia/tensorrt-llm/release:0.18.2', framework: 'trtllm' } },
    { line: 'docker run --rm -v /m:/m dustynv/mlc:0.1.4-r36.4.0 mlc_llm compile /m/x/mlc-chat-config.json --device cuda -o /m/lib.so', expect: { kind: 'build', subject: 'dustynv/mlc:0.1.4-r36.4.0', framework: 'mlc' } },
  ],
  'container-probe': [
    { line: `docker run --rm lmsysorg/sglang:spark python3 -c "import sglang; print(sglang.__version__)"`, expect: { kind: 'probe', subject: 'lmsysorg/sglang:spark', framework: 'sglang' } },
    { line: 'docker run --rm --gpus all img:3 nvidia-smi', expect: { kind: 'probe', subject: 'img:3' } },
  ],
  'container-exec': [
    { line: `docker exec vllm-cluster python3 -c "import vllm; print(vllm.__version__)"`, expect: { kind: 'probe', subject: 'vllm-cluster', service: 'vllm-cluster' } },
    { line: `docker exec -d c1 bash -c "vllm serve Qwen/Qwen3-8B --port 8000 > /tmp/log 2>&1"`, expect: { kind: 'serve', model: 'Qwen/Qwen3-8B', port: 8000 } },
    { line: 'docker exec c1 ray status', expect: { kind: 'cluster' } },
    { line: 'docker exec c1 tail -n 4 /tmp/vllm.log', expect: { kind: 'inspect', subject: 'c1' } },
  ],
  'image-pull': [
    { line: 'docker pull lmsysorg/sglang:spark', expect: { kind: 'pull', subject: 'lmsysorg/sglang:spark', image: 'lmsysorg/sglang:spark' } },
    { line: 'docker pull -q docker.io/library/ubuntu:latest', expect: { kind: 'pull', subject: 'ubuntu' } },
    { line: 'podman image pull --platform linux/arm64 nvcr.io/nvidia/vllm:25.11-py3', expect: { kind: 'pull', subject: 'nvcr.io/nvidia/vllm:25.11-py3' } },
    { line: 'ctr -n k8s.io images pull docker.io/a/b:1', expect: { kind: 'pull', image: 'docker.io/a/b:1' } },
    { line: 'enroot import docker://nvcr.io#nvidia/pytorch:24.05-py3', expect: { kind: 'pull', image: 'nvcr.io/nvidia/pytorch:24.05-py3' } },
  ],
  'weights-download': [
    { line: 'HF_TOKEN=x ~/.local/bin/hf download Qwen/Qwen3.5-122B-A10B-FP8 --local-dir /m', expect: { kind: 'download', subject: 'Qwen/Qwen3.5-122B-A10B-FP8', model: 'Qwen/Qwen3.5-122B-A10B-FP8' } },
    { line: 'huggingface-cli download meta-llama/Llama-3.3-70B-Instruct --exclude "original/*"', expect: { kind: 'download', model: 'meta-llama/Llama-3.3-70B-Instruct' } },
    { line: 'git clone https://huggingface.co/openai/gpt-oss-20b', expect: { kind: 'download', model: 'openai/gpt-oss-20b' } },
    { line: 'wget https://huggingface.co/org/m-GGUF/resolve/main/m-Q4_K_M.gguf', expect: { kind: 'download', subject: 'org/m-GGUF' } },
    { line: 'ollama pull llama3.1:8b', expect: { kind: 'download', subject: 'llama3.1:8b' } },
    { line: `python3 -c "from huggingface_hub import snapshot_download; snapshot_download('Qwen/Qwen3-8B')"`, expect: { kind: 'download', model: 'Qwen/Qwen3-8B' } },
  ],
  'weights-copy': [
    { line: 'rsync -a --info=progress2 /data/models/Llama-3.3-70B-Instruct/ 10.0.0.2:/data/models/Llama-3.3-70B-Instruct/', expect: { kind: 'download', subject: 'Llama-3.3-70B-Instruct' } },
  ],
  'serve-launcher': [
    { line: 'vllm serve Qwen/Qwen3.5-122B-A10B-FP8 --port 8000 -tp 2 --distributed-executor-backend ray', expect: { kind: 'serve', model: 'Qwen/Qwen3.5-122B-A10B-FP8', port: 8000, config: '-tp 2', framework: 'vllm' } },
    { line: 'python -m vllm.entrypoints.openai.api_server --model m/x --tensor-parallel-size 4 --pipeline-parallel-size 2', expect: { kind: 'serve', model: 'm/x', config: '--tensor-parallel-size 4 --pipeline-parallel-size 2' } },
    { line: 'OLLAMA_KV_CACHE_TYPE=q8_0 ollama serve', expect: { kind: 'serve', framework: 'ollama', config: 'OLLAMA_KV_CACHE_TYPE=q8_0' } },
    { line: 'python3 -m sglang.launch_server --model-path /models/L --served-model-name meta/L-70B --tp 16 --nnodes 2 --port 30000', expect: { kind: 'serve', model: 'meta/L-70B', config: '--tp 16 --nnodes 2', framework: 'sglang' } },
    { line: 'trtllm-serve serve /engines/llama --port 9000', expect: { kind: 'serve', framework: 'trtllm', port: 9000 } },
    { line: 'llama-server -m model.gguf --port 8080', expect: { kind: 'serve', model: 'model.gguf', framework: 'llamacpp' } },
    { line: 'text-generation-launcher --model-id bigscience/bloom-560m', expect: { kind: 'serve', model: 'bigscience/bloom-560m', framework: 'tgi' } },
  ],
  'engine-build': [
    { line: 'trtllm-build --checkpoint_dir /raid/trt/ckpt-tp2 --output_dir /raid/trt/engine-tp2 --gemm_plugin auto', expect: { kind: 'build', framework: 'trtllm', model: '/raid/trt/ckpt-tp2' } },
    { line: 'python3 quantize.py --model_dir /m/L-70B --qformat fp8 --tp_size 2 --output_dir /c', expect: { kind: 'build', framework: 'trtllm', config: '--tp_size 2' } },
    { line: 'mlc_llm convert_weight dist/models/M --quantization q4f16_1 -o dist/M-q4f16_1-MLC', expect: { kind: 'build', framework: 'mlc' } },
  ],
  'compose-pull': [
    { line: 'docker compose --env-file /dev/null pull gemma3', files: COMPOSE, expect: { kind: 'pull', image: 'vllm/vllm-openai:v0.8.2', service: 'gemma3' } },
  ],
  'compose-serve': [
    { line: 'cd ~/stack && docker compose up -d gemma3', files: COMPOSE, expect: { kind: 'serve', image: 'vllm/vllm-openai:v0.8.2', model: 'google/gemma-3-27b-it', port: 8001, framework: 'vllm', config: '--tensor-parallel-size 2' } },
  ],
  'compose-logs': [
    { line: 'docker compose logs --tail 12 gemma3', files: COMPOSE, expect: { kind: 'inspect', image: 'vllm/vllm-openai:v0.8.2', service: 'gemma3' } },
  ],
  'manifest-apply': [
    { line: 'kubectl apply -k apps/nim', files: MANIFEST, expect: { kind: 'serve', image: 'nvcr.io/nim/meta/llama-3.1-8b-instruct:1.0.0', framework: 'nim' } },
    { line: 'kubectl -n llm apply -f apps/nim/deployment.yaml', files: MANIFEST, expect: { kind: 'serve', image: 'nvcr.io/nim/meta/llama-3.1-8b-instruct:1.0.0' } },
  ],
  'helm-release': [
    { line: 'helm install my-nim nim-llm-1.3.0.tgz -n nim -f values.yaml', files: { '/home/ops/values.yaml': 'image:\n  repository: nvcr.io/nim/meta/llama-3.1-8b-instruct\n  tag: "1.3.3"\nresources:\n  limits:\n    nvidia.com/gpu: 1\n' }, expect: { kind: 'serve', image: 'nvcr.io/nim/meta/llama-3.1-8b-instruct:1.3.3', framework: 'nim' } },
    { line: 'helm upgrade --install vllm vllm/vllm-stack --set servingEngineSpec.modelSpec[0].repository=vllm/vllm-openai,servingEngineSpec.modelSpec[0].tag=v0.9.2', expect: { kind: 'serve', image: 'vllm/vllm-openai:v0.9.2', framework: 'vllm' } },
    { line: 'helm upgrade my-nim nim-llm-1.3.0.tgz --reuse-values --set image.tag=1.8.0', workload: 'nvcr.io/nim/meta/llama-3.1-8b-instruct:1.3.3', expect: { kind: 'serve', image: 'nvcr.io/nim/meta/llama-3.1-8b-instruct:1.8.0' } },
  ],
  'kubectl-set-image': [
    { line: 'kubectl -n llm set image deploy/nim nim=nvcr.io/nim/meta/llama-3.1-8b-instruct:1.3.3', expect: { kind: 'serve', image: 'nvcr.io/nim/meta/llama-3.1-8b-instruct:1.3.3', framework: 'nim' } },
  ],
  'framework-probe': [
    { line: 'build-hip/bin/llama-bench -m ~/models/m.gguf -ngl 99 -p 512', expect: { kind: 'probe', framework: 'llamacpp' } },
  ],
  'pod-http-check': [
    { line: "kubectl -n llm run probe-c --rm -i --restart=Never --image=curlimages/curl:8.11.1 -- -s -w '%{http_code}' http://demo-predictor.llm.svc:80/v1/models", expect: { kind: 'health', port: 80 } },
  ],
  'kubectl-run': [
    { line: 'kubectl -n llm run profiles --rm -i --restart=Never --image=nvcr.io/nim/meta/x:1.0.0 --command -- list-model-profiles', expect: { kind: 'probe', image: 'nvcr.io/nim/meta/x:1.0.0' } },
  ],
  'workload-inspect': [
    { line: 'kubectl -n llm logs deploy/nim --tail=40', workload: 'nvcr.io/nim/meta/x:1.3.3', expect: { kind: 'inspect', image: 'nvcr.io/nim/meta/x:1.3.3' } },
  ],
  'image-commit': [
    { line: 'docker commit vllm-build vllm-gb10:0.10.2-local', expect: { kind: 'build', image: 'vllm-gb10:0.10.2-local', service: 'vllm-build' } },
  ],
  'ray-cluster': [
    { line: 'ray start --head --port 6379 --node-ip-address 192.168.200.1', expect: { kind: 'cluster', subject: 'ray head' } },
    { line: 'ray start --address=192.168.200.1:6379', expect: { kind: 'cluster', subject: 'ray worker → 192.168.200.1:6379' } },
    { line: 'ray status', expect: { kind: 'cluster', subject: 'ray status' } },
  ],
  'api-client': [
    { line: `python3 -c "from openai import OpenAI; c = OpenAI(base_url='http://localhost:8000/v1', api_key='x'); print(c.chat.completions.create(model='m', messages=[{'role': 'user', 'content': 'hi'}]).choices[0].message.content)"`, expect: { kind: 'health', subject: 'http://localhost:8000/v1', port: 8000, targetHost: null } },
    { line: `python3 -c "import requests; print(requests.post('http://10.0.0.5:30000/v1/chat/completions', json={}).json())"`, expect: { kind: 'health', port: 30000, targetHost: '10.0.0.5' } },
  ],
  'serving-benchmark': [
    { line: 'python3 -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 50', expect: { kind: 'health', subject: 'localhost:30000', port: 30000, targetHost: null } },
    { line: 'vllm bench serve --model Qwen/Qwen3-8B --base-url http://10.0.0.5:8000', expect: { kind: 'health', port: 8000, targetHost: '10.0.0.5' } },
    { line: 'python benchmarks/benchmark_serving.py --backend vllm --model m', expect: { kind: 'health' } },
    { line: 'genai-perf profile -m llama --url localhost:8001', expect: { kind: 'health', port: 8001 } },
  ],
  'health-check': [
    { line: 'curl -s -o /dev/null -w "%{http_code}" localhost:8000/health', expect: { kind: 'health', subject: 'localhost:8000/health', port: 8000, targetHost: null } },
    { line: 'curl -s http://10.0.0.5:30000/v1/models', expect: { kind: 'health', port: 30000, targetHost: '10.0.0.5' } },
    { line: `curl -s localhost:8000/v1/chat/completions -H "Content-Type: application/json" -d '{"model":"m"}'`, expect: { kind: 'health', subject: 'localhost:8000/v1/chat/completions' } },
    { line: 'wget -qO- 127.0.0.1:11434/api/tags', expect: { kind: 'health', port: 11434 } },
  ],
  'service-stop': [
    { line: 'sudo systemctl stop vllm-cluster vllm-proxy', expect: { kind: 'stop', subject: 'vllm-cluster vllm-proxy' } },
    { line: 'docker rm -f old-server', expect: { kind: 'stop', subject: 'old-server' } },
    { line: 'pkill -f "vllm serve"', expect: { kind: 'stop', subject: 'vllm serve' } },
    { line: 'ray stop', expect: { kind: 'stop' } },
    { line: 'docker compose -f x.yml down', expect: { kind: 'stop' } },
  ],
  'service-start': [
    { line: 'sudo systemctl restart vllm-embeddings', expect: { kind: 'start', subject: 'vllm-embeddings' } },
    { line: 'docker start gptoss', expect: { kind: 'start', subject: 'gptoss' } },
    { line: 'docker compose up -d', expect: { kind: 'start' } },
  ],
  'package-install': [
    { line: 'pip install --user tensorrt_llm==0.17.0 --extra-index-url https://pypi.nvidia.com -c /etc/pip/constraints.txt', expect: { kind: 'install', subject: 'tensorrt_llm==0.17.0', framework: 'trtllm' } },
    { line: 'python3 -m pip install -U --index-url https://mirror/simple huggingface_hub', expect: { kind: 'install', subject: 'huggingface_hub', framework: null } },
    { line: 'sudo apt-get install -y nvtop', expect: { kind: 'install', subject: 'nvtop' } },
    { line: 'uv pip install vllm==0.10.1', expect: { kind: 'install', framework: 'vllm' } },
    { line: 'cargo install --locked rustyllm-server', expect: { kind: 'install', subject: 'rustyllm-server', framework: null } },
    { line: 'npm install -g @acme/llm-gateway', expect: { kind: 'install', subject: '@acme/llm-gateway' } },
  ],
  'installed-serve': [
    { line: 'nohup fastllm-serve --model Qwen/Qwen2.5-7B-Instruct --port 9000 > serve.log 2>&1 &', installed: ['fastllm-serve==1.4.0'], expect: { kind: 'serve', subject: 'Qwen/Qwen2.5-7B-Instruct', model: 'Qwen/Qwen2.5-7B-Instruct', port: 9000, framework: null } },
    { line: 'python3 -m fastllm_serve.api --host 0.0.0.0 --port 9001', installed: ['fastllm-serve'], expect: { kind: 'serve', port: 9001 } },
    { line: 'zeta-local serve Qwen/Qwen2.5-7B-Instruct', installed: ['zeta'], expect: { kind: 'serve', model: 'Qwen/Qwen2.5-7B-Instruct' } },
  ],
  'env-probe': [
    { line: 'pip show vllm', expect: { kind: 'probe', subject: 'vllm', framework: 'vllm' } },
    { line: `python3 -c "import torch; print(torch.__version__)"`, expect: { kind: 'probe', subject: 'torch', framework: null } },
    { line: 'vllm --version', expect: { kind: 'probe', framework: 'vllm' } },
  ],
  'source-build': [
    { line: 'docker build -t my/sglang:qwen35 .', expect: { kind: 'build', subject: 'my/sglang:qwen35', image: 'my/sglang:qwen35', framework: 'sglang' } },
    { line: 'git clone https://github.com/ridanuae/dgx-spark-sglang-qwen35.git', expect: { kind: 'build', subject: 'ridanuae/dgx-spark-sglang-qwen35' } },
    { line: 'make -j8', expect: { kind: 'build' } },
  ],
  'registry-listing': [
    { line: 'docker manifest inspect nvcr.io/nvidia/vllm:25.10-py3', expect: { kind: 'inspect', subject: 'nvcr.io/nvidia/vllm:25.10-py3' } },
    { line: 'curl -s "https://huggingface.co/api/models?search=Qwen3.5"', expect: { kind: 'inspect' } },
    { line: 'docker images', expect: { kind: 'inspect' } },
  ],
  inspect: [
    { line: 'nvidia-smi', expect: { kind: 'inspect' } },
    { line: 'df -h /', expect: { kind: 'inspect' } },
    { line: 'docker ps --format "{{.Names}}"', expect: { kind: 'inspect' } },
    { line: 'docker logs --tail 3 gptoss', expect: { kind: 'inspect', subject: 'gptoss' } },
    { line: 'systemctl cat vllm-cluster --no-pager', expect: { kind: 'inspect', subject: 'vllm-cluster' } },
    { line: 'ibdev2netdev', expect: { kind: 'inspect' } },
  ],
  'http-fetch': [
    { line: 'curl -sL https://huggingface.co/Qwen/Qwen3.5-122B-A10B-FP8/resolve/main/config.json', expect: { kind: 'fetch' } },
  ],
  other: [
    { line: 'mkdir -p /data/models', expect: { kind: 'other', subject: 'mkdir' } },
  ],
};

describe('classification rules: one test per rule', () => {
  it('every rule in the table has examples here', () => {
    expect(RULES.map((r) => r.name).filter((name) => !EXAMPLES[name])).toEqual([]);
    expect(new Set(RULES.map((r) => r.name)).size).toBe(RULES.length);
  });

  for (const rule of RULES) {
    it(`${rule.name}: ${rule.description}`, () => {
      for (const example of EXAMPLES[rule.name] ?? []) {
        const matches = example.tool && example.line === '' ? [classifyTool(example.tool, example.input ?? '{}')].filter((m): m is RuleMatch => m !== null) : classify(example.line, 'bash', example.files, example.workload ?? null, example.installed ?? []);
        if (example.expect === null) {
          expect(matches, example.line).toHaveLength(example.actions ?? 0);
          expect(matches.some((m) => m.rule === 'other' || m.rule === rule.name), example.line).toBe(false);
          continue;
        }
        const match = matches.find((m) => m.rule === rule.name);
        expect(match, `${example.line || example.tool}: ${JSON.stringify(matches)}`).toBeDefined();
        expect(match).toMatchObject(example.expect);
      }
    });
  }
});

describe('classification: what rules must not claim', () => {
  it('an installed package\'s program asked for its version, or a program nothing installed, is no serve', () => {
    expect(classify('fastllm-serve --version', 'bash', {}, null, ['fastllm-serve==1.4.0']).map((m) => m.rule)).toEqual(['other']);
    expect(classify('fastllm-serve --model Qwen/Qwen2.5-7B-Instruct --port 9000').map((m) => m.rule)).toEqual(['other']);
  });

  it('an installed runner or supervisor of another program is not the server (review)', () => {
    // `poetry run vllm serve …` and `pm2 start "vllm serve …"` run vLLM: neither poetry nor pm2 is a candidate.
    expect(classify('poetry run vllm serve Qwen/Qwen2.5-7B-Instruct --port 8000', 'bash', {}, null, ['poetry']).map((m) => m.rule)).not.toContain('installed-serve');
    expect(classify('pm2 start "vllm serve Qwen/Qwen2.5-7B-Instruct --port 8000"', 'bash', {}, null, ['pm2']).map((m) => m.rule)).not.toContain('installed-serve');
    expect(classify('fastllm-serve run --port 9000 --model Qwen/Qwen2.5-7B-Instruct', 'bash', {}, null, ['fastllm-serve']).map((m) => m.rule)).toContain('installed-serve');
    expect(classify('jq --port 1', 'bash', {}, null, ['fastllm-serve']).map((m) => m.rule)).toEqual(['other']);
  });

  it('`kubectl apply` that names no -f/-k file (the session wrote manifests) is no serve and does not throw', () => {
    // A derive once failed on it: the missing file reached the path matcher as null.
    for (const line of ['kubectl apply --prune -l app=vllm', 'kubectl apply view-last-applied deploy/nim']) {
      expect(classify(line, 'bash', MANIFEST).some((m) => m.kind === 'serve'), line).toBe(false);
    }
  });

  it('a weight-less hub fetch is not a download, a config read is not a probe', () => {
    expect(classify('curl -sL https://huggingface.co/Qwen/Q/resolve/main/config.json').map((m) => m.kind)).toEqual(['fetch']);
  });

  it('a benchmark client asked for its --help sends no request: no health check', () => {
    expect(classify('python3 benchmarks/benchmark_serving.py --help').map((m) => m.kind)).toEqual(['other']);
  });

  it('a python filter after a pipe is not a probe', () => {
    expect(classify(`curl -s x.example.org/api | python3 -c "import json,sys; print(json.load(sys.stdin))"`).map((m) => m.kind)).toEqual(['fetch']);
  });

  it('shell and ssh wrappers are transparent; substitutions are classified', () => {
    expect(classify(`ssh a@h 'for i in $(seq 1 60); do code=$(curl -s -o /dev/null -w "%{http_code}" localhost:8000/health); [ "$code" = 200 ] && break; sleep 10; done; docker logs --tail 3 gptoss'`).map((m) => [m.kind, m.rule])).toEqual([
      ['health', 'health-check'],
      ['inspect', 'inspect'],
    ]);
  });

  it('non-shell tools other than web tools are not actions', () => {
    for (const tool of ['read', 'edit', 'todowrite', 'Task', 'apply_patch']) expect(classifyTool(tool, '{}')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import type { SyntheticSession } from './helpers/synthetic-session.js';
import { syntheticTrees } from './helpers/synthetic-trees.js';

/**
 * Serving stacks no rule file names (every name here is invented): an image run as a service and a
 * package installed and launched as a server are candidates with the verdict their evidence gives;
 * images and packages that are tools, proxies or UIs are not.
 */
const GOAL = { role: 'user', text: 'Serve Qwen/Qwen2.5-7B-Instruct on box1 with an OpenAI-compatible API on port 9000.' } as const;
const CHAT = "ssh me@box1 'sleep 60; curl -s localhost:9000/v1/chat/completions -H \"Content-Type: application/json\" -d \"{\\\"model\\\":\\\"Qwen/Qwen2.5-7B-Instruct\\\",\\\"messages\\\":[{\\\"role\\\":\\\"user\\\",\\\"content\\\":\\\"hi\\\"}]}\"'";
const ANSWER = '{"id":"chatcmpl-1","choices":[{"message":{"role":"assistant","content":"Hello!"}}]}';

const IMAGES: SyntheticSession = {
  id: 'syn-unlisted-images',
  title: 'Two images of stacks no rule file knows',
  steps: [
    GOAL,
    { role: 'assistant', text: 'Trying the acme server image.', calls: [{ command: "ssh me@box1 'docker run -d --name llm --gpus all -p 9000:9000 acmeai/fastserve:2.1 --model Qwen/Qwen2.5-7B-Instruct --port 9000'", output: 'f00d' }] },
    { role: 'assistant', text: 'Logs.', calls: [{ command: "ssh me@box1 'sleep 30; docker logs llm 2>&1 | tail -5'", output: 'Loading model...\nRuntimeError: CUDA error: no kernel image is available for execution on the device' }] },
    { role: 'assistant', text: 'No kernel image for this GPU. Switching to the zeta image.', calls: [{ command: "ssh me@box1 'docker rm -f llm; docker run -d --name llm --gpus all -p 9000:9000 zetalabs/zserve:0.9.3 serve Qwen/Qwen2.5-7B-Instruct --port 9000'", output: 'beef' }] },
    { role: 'assistant', text: 'Check.', calls: [{ command: CHAT, output: ANSWER }] },
    { role: 'assistant', text: 'The zeta image serves; the acme one has no kernels for this GPU.' },
  ],
};

/** Tools, a database, a proxy and a chat UI around a known server: none of them is a candidate. */
const SIDECARS: SyntheticSession = {
  id: 'syn-unlisted-sidecars',
  title: 'Tools and sidecars beside a vLLM server',
  steps: [
    GOAL,
    { role: 'assistant', text: 'GPU check.', calls: [{ command: "ssh me@box1 'docker run --rm --gpus all ubuntu:22.04 nvidia-smi'", output: '| NVIDIA-SMI 580.95  Driver Version: 580.95  CUDA Version: 13.0 |' }] },
    { role: 'assistant', text: 'A cache for sessions.', calls: [{ command: "ssh me@box1 'docker run -d --name cache -p 6379:6379 valkey/valkey:8'", output: 'c0ffee' }] },
    { role: 'assistant', text: 'The server.', calls: [{ command: "ssh me@box1 'docker run -d --name llm --gpus all -p 8000:8000 vllm/vllm-openai:v0.9.2 --model Qwen/Qwen2.5-7B-Instruct'", output: 'abc' }] },
    { role: 'assistant', text: 'A proxy in front on port 80.', calls: [{ command: "ssh me@box1 'docker run -d --name front -p 80:80 -v /etc/front.conf:/etc/nginx/conf.d/default.conf nginx:1.27'", output: 'def' }] },
    { role: 'assistant', text: 'Through the proxy.', calls: [{ command: "ssh me@box1 'curl -s localhost/v1/models'", output: '{"object":"list","data":[{"id":"Qwen/Qwen2.5-7B-Instruct"}]}' }] },
    { role: 'assistant', text: 'A chat UI too.', calls: [{ command: "ssh me@box1 'docker run -d --name ui -p 3000:8080 -e OPENAI_API_BASE_URL=http://box1:8000/v1 ghcr.io/open-webui/open-webui:main; sleep 20; curl -s localhost:3000/health'", output: '{"status":true}' }] },
    { role: 'assistant', text: 'Serving behind the proxy, with a UI.' },
  ],
};

const PACKAGE: SyntheticSession = {
  id: 'syn-unlisted-package',
  title: 'A package no rule file knows, installed and launched',
  steps: [
    GOAL,
    { role: 'assistant', text: 'We could try fastllm-serve. Install.', calls: [{ command: "ssh me@box1 'pip install fastllm-serve==1.4.0'", output: 'Successfully installed fastllm-serve-1.4.0' }] },
    { role: 'assistant', text: 'Start.', calls: [{ command: "ssh me@box1 'nohup fastllm-serve --model Qwen/Qwen2.5-7B-Instruct --port 9000 > serve.log 2>&1 & sleep 60; tail -3 serve.log'", output: 'Traceback (most recent call last):\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB' }] },
    { role: 'assistant', text: 'OOM. Fallback: we could also try mistral.rs. First, a smaller context.', calls: [{ command: "ssh me@box1 'nohup fastllm-serve --model Qwen/Qwen2.5-7B-Instruct --port 9000 --max-context 8192 > serve.log 2>&1 & sleep 60; curl -s -o /dev/null -w \"%{http_code}\" localhost:9000/v1/models'", output: '200' }] },
    { role: 'assistant', text: 'Serving with --max-context 8192.' },
  ],
};

/** A cargo-installed server that never came up: rejected, named by its crate. */
const CRATE: SyntheticSession = {
  id: 'syn-unlisted-crate',
  title: 'A crate installed and launched, failing',
  steps: [
    GOAL,
    { role: 'assistant', text: 'Install the server crate.', calls: [{ command: "ssh me@box1 'cargo install rustyllm-server'", output: '  Installed package `rustyllm-server v0.3.1` (executable `rustyllm-server`)' }] },
    { role: 'assistant', text: 'Run it.', calls: [{ command: "ssh me@box1 'rustyllm-server --port 9000 plain -m Qwen/Qwen2.5-7B-Instruct 2>&1 | tail -2'", exit: 1, output: 'Error: DriverError(CUDA_ERROR_OUT_OF_MEMORY, "out of memory")\nCUDA error: out of memory' }] },
    { role: 'assistant', text: 'It does not fit.' },
  ],
};

/** A release binary downloaded and run: named by its repository and tag. */
const RELEASE: SyntheticSession = {
  id: 'syn-unlisted-release',
  title: 'A release binary downloaded and launched',
  steps: [
    GOAL,
    { role: 'assistant', text: 'Fetch the release.', calls: [{ command: "ssh me@box1 'cd ~/bin && wget -q https://github.com/zetalabs/zserve/releases/download/v0.9.3/zserve-linux-x86_64.tar.gz && tar xzf zserve-linux-x86_64.tar.gz'", output: '' }] },
    { role: 'assistant', text: 'Run it.', calls: [{ command: "ssh me@box1 'cd ~/bin && nohup ./zserve --model Qwen/Qwen2.5-7B-Instruct --port 9000 > z.log 2>&1 & sleep 30; curl -s localhost:9000/v1/models'", output: '{"object":"list","data":[{"id":"Qwen/Qwen2.5-7B-Instruct"}]}' }] },
    { role: 'assistant', text: 'Serving.' },
  ],
};

const COMPOSE_FILE = 'services:\n  llm:\n    image: zetalabs/zserve:0.9.3\n    command: serve Qwen/Qwen2.5-7B-Instruct --port 9000\n    ports: ["9000:9000"]\n  cache:\n    image: redis:7\n';
const MANIFEST = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: llm}\nspec:\n  template:\n    spec:\n      containers:\n        - name: llm\n          image: acmeai/fastserve:2.1\n          args: ["--model", "Qwen/Qwen2.5-7B-Instruct", "--port", "9000"]\n          ports: [{containerPort: 9000}]\n';

/** A compose service and a Deployment of unlisted images: the cache beside the server is none. */
const ORCHESTRATED: SyntheticSession = {
  id: 'syn-unlisted-orchestrated',
  title: 'Unlisted images under compose and Kubernetes',
  steps: [
    GOAL,
    { role: 'assistant', text: 'Compose file.', calls: [{ command: '', tool: 'Write', input: { file_path: '/srv/stack/compose.yaml', content: COMPOSE_FILE }, output: 'ok' }] },
    { role: 'assistant', text: 'Up.', calls: [{ command: 'cd /srv/stack && docker compose up -d', output: ' ✔ Container stack-llm-1  Started' }] },
    { role: 'assistant', text: 'Check.', calls: [{ command: 'curl -s localhost:9000/v1/models', output: '{"object":"list","data":[{"id":"Qwen/Qwen2.5-7B-Instruct"}]}' }] },
    { role: 'assistant', text: 'Now on the cluster.', calls: [{ command: '', tool: 'Write', input: { file_path: '/srv/k8s/llm.yaml', content: MANIFEST }, output: 'ok' }] },
    { role: 'assistant', text: 'Apply.', calls: [{ command: 'kubectl apply -f /srv/k8s/llm.yaml', output: 'deployment.apps/llm created' }] },
    { role: 'assistant', text: 'Logs.', calls: [{ command: 'kubectl logs deploy/llm --tail 5', output: 'RuntimeError: CUDA error: no kernel image is available for execution on the device' }] },
    { role: 'assistant', text: 'No kernels on the cluster GPUs.' },
  ],
};

/** A notebook and a tracking server installed with pip and started on a port: tools, asked for no model. */
const TOOLS: SyntheticSession = {
  id: 'syn-unlisted-tools',
  title: 'Packages started on a port that serve no model',
  steps: [
    GOAL,
    { role: 'assistant', text: 'A notebook to explore.', calls: [{ command: "ssh me@box1 'pip install jupyterlab mlflow && nohup jupyter-lab --port 8888 --ip 0.0.0.0 > j.log 2>&1 & nohup mlflow server --host 0.0.0.0 --port 5000 > m.log 2>&1 & sleep 5; curl -s -o /dev/null -w \"%{http_code}\" localhost:5000/health'", output: '200' }] },
    { role: 'assistant', text: 'Both up.' },
  ],
};

/** A gateway the user asked for by name: its guessed tag fails to pull, the next one serves; the chat UI nobody asked for is none. */
const ASKED_GATEWAY: SyntheticSession = {
  id: 'syn-asked-gateway',
  title: 'A vLLM server and the LiteLLM gateway the user asked for',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-7B-Instruct with vLLM on box1 and put a LiteLLM gateway on port 4000 in front of it.' },
    { role: 'assistant', text: 'The server.', calls: [{ command: "ssh me@box1 'docker run -d --name llm --gpus all -p 8000:8000 vllm/vllm-openai:v0.9.2 --model Qwen/Qwen2.5-7B-Instruct; sleep 90; curl -s localhost:8000/v1/models'", output: '{"object":"list","data":[{"id":"Qwen/Qwen2.5-7B-Instruct"}]}' }] },
    { role: 'assistant', text: 'vLLM answers at 42 tok/s single stream. Now the gateway image.', calls: [{ command: "ssh me@box1 'docker pull ghcr.io/acme-gw/litellm:v2.1-stable'", exit: 1, output: 'Error response from daemon: manifest unknown' }] },
    { role: 'assistant', text: 'That tag does not exist; the stable tags carry a main- prefix.', calls: [{ command: "ssh me@box1 'docker run -d --name gw -p 4000:4000 ghcr.io/acme-gw/litellm:main-v2.1-stable --port 4000; sleep 10; docker logs gw 2>&1 | tail -2'", output: 'INFO:     Started server process [1]\nINFO:     Uvicorn running on http://0.0.0.0:4000' }] },
    { role: 'assistant', text: 'A chat UI as well.', calls: [{ command: "ssh me@box1 'docker run -d --name ui -p 3000:8080 ghcr.io/open-webui/open-webui:main'", output: 'def' }] },
    { role: 'assistant', text: 'vLLM serves behind the gateway on 4000.' },
  ],
};

/** A chat UI named as the client of the server ("for LibreChat"), then started: still no candidate. */
const CLIENT_NAMED: SyntheticSession = {
  id: 'syn-client-named',
  title: 'A server for LibreChat, and LibreChat started beside it',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-7B-Instruct with vLLM on box1, OpenAI-compatible on port 8000 for LibreChat.' },
    { role: 'assistant', text: 'The server.', calls: [{ command: "ssh me@box1 'docker run -d --name llm --gpus all -p 8000:8000 vllm/vllm-openai:v0.9.2 --model Qwen/Qwen2.5-7B-Instruct; sleep 90; curl -s localhost:8000/v1/models'", output: '{"object":"list","data":[{"id":"Qwen/Qwen2.5-7B-Instruct"}]}' }] },
    { role: 'assistant', text: 'Pointing LibreChat at it.', calls: [{ command: "ssh me@box1 'docker run -d --name chat -p 3080:3080 ghcr.io/danny-avila/librechat:v0.7.7'", output: 'e1' }] },
    { role: 'assistant', text: 'LibreChat talks to vLLM on 8000.' },
  ],
};

const t = syntheticTrees([IMAGES, SIDECARS, ORCHESTRATED, PACKAGE, CRATE, RELEASE, TOOLS, ASKED_GATEWAY, CLIENT_NAMED], 'retrace-unknown-stacks-');

describe('serving stacks no rule file names', () => {
  it('an image run as a service is a candidate with the verdict its logs or checks give', () => {
    expect(t.names('syn-unlisted-images')).toEqual(['acmeai/fastserve:2.1 rejected', 'zetalabs/zserve:0.9.3 accepted']);
    expect(t.candidate('syn-unlisted-images', 'acmeai/fastserve:2.1')?.reason).toMatch(/no kernel image/);
    expect(t.candidate('syn-unlisted-images', 'zetalabs/zserve:0.9.3')?.framework).toBe('other');
  });

  it('a tool image, a cache, a proxy and a chat UI are no candidates', () => {
    expect(t.names('syn-unlisted-sidecars')).toEqual(['vllm/vllm-openai:v0.9.2 accepted']);
  });

  it('a compose service and a Deployment are candidates; a Deployment whose logs fail as a model server fails, though its command names no model', () => {
    expect(t.names('syn-unlisted-orchestrated')).toEqual(['zetalabs/zserve:0.9.3 accepted', 'acmeai/fastserve:2.1 rejected']);
  });

  it('a package installed and launched as a server is a candidate named by its spec', () => {
    const names = t.names('syn-unlisted-package');
    expect(names[0]).toBe('fastllm-serve==1.4.0 accepted');
    expect(t.candidate('syn-unlisted-package', 'fastllm-serve==1.4.0')?.evidence.length).toBeGreaterThan(1);
  });

  it('an unlisted stack proposed in prose is a lead, and one proposed then installed is the tried package', () => {
    const names = t.names('syn-unlisted-package');
    expect(names).toContain('mistral.rs untested');
    expect(names.filter((n) => n.startsWith('fastllm-serve '))).toEqual([]);
  });

  it('a crate installed with cargo and launched is one too, rejected when it fails', () => {
    expect(t.names('syn-unlisted-crate')).toEqual(['rustyllm-server rejected']);
  });

  it('a release binary downloaded and launched is a candidate named by its repository and tag', () => {
    expect(t.names('syn-unlisted-release')).toEqual(['zserve@v0.9.3 accepted']);
  });

  it('packages started on a port that were asked for no model are tools', () => {
    expect(t.names('syn-unlisted-tools')).toEqual([]);
  });

  it('a sidecar the user asked for by name is a candidate: a guessed tag that does not pull is rejected, the tag that runs accepted', () => {
    expect(t.names('syn-asked-gateway')).toEqual(['vllm/vllm-openai:v0.9.2 accepted', 'ghcr.io/acme-gw/litellm:v2.1-stable rejected', 'ghcr.io/acme-gw/litellm:main-v2.1-stable accepted']);
    expect(t.candidate('syn-asked-gateway', 'ghcr.io/acme-gw/litellm:v2.1-stable')?.reason).toMatch(/manifest unknown/);
  });

  it('going on from the server to the gateway is no move away from the server: no turn, and its measured rate judges nothing', () => {
    expect(t.tree('syn-asked-gateway')?.pivots.map((p) => `${p.from} → ${p.to}`)).toEqual(['ghcr.io/acme-gw/litellm:v2.1-stable → ghcr.io/acme-gw/litellm:main-v2.1-stable']);
  });

  it('a sidecar named only as the client of the server ("for LibreChat") is none, though the session starts it', () => {
    expect(t.names('syn-client-named')).toEqual(['vllm/vllm-openai:v0.9.2 accepted']);
  });
});

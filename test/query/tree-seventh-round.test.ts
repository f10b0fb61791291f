import { describe, expect, it } from 'vitest';
import type { SyntheticSession } from './helpers/synthetic-session.js';
import { syntheticTrees } from './helpers/synthetic-trees.js';

/**
 * General rules of the seventh round, each told by a small session of its own (none is a story of
 * the eval corpus): what a try showed, read from where its output says it, and which try it belongs to.
 */

/** The same container name reused by a second image; checks run inside the container name no port. */
const NAME_REUSED: SyntheticSession = {
  id: 'syn-container-name-reused',
  title: 'A container name reused by the newer image; a benchmark run inside it',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-72B-Instruct with vLLM on g7, tp 4.' },
    { role: 'assistant', text: 'The cached image first.', calls: [{ command: "ssh me@g7 'docker run --rm --name llm --gpus all -p 8000:8000 vllm/vllm-openai:v0.6.0 --model Qwen/Qwen2.5-72B-Instruct 2>&1 | tail -n 2'", output: 'KeyError: model.layers.0.mlp.experts missing from the checkpoint\nRuntimeError: Engine process failed to start.' }] },
    { role: 'assistant', text: 'Again without the port mapping, to read the whole log.', calls: [{ command: "ssh me@g7 'docker run --rm --gpus all vllm/vllm-openai:v0.6.0 --model Qwen/Qwen2.5-72B-Instruct > /tmp/v.log 2>&1; grep -n Error /tmp/v.log'", exit: 1, output: '12:ValueError: Model architectures are not supported for now.' }] },
    { role: 'assistant', text: 'A newer image.', calls: [{ command: "ssh me@g7 'docker run -d --name llm --gpus all --ipc=host -p 8000:8000 vllm/vllm-openai:v0.8.5 --model Qwen/Qwen2.5-72B-Instruct'", output: 'c0ffee' }] },
    { role: 'assistant', text: 'Benchmark from inside the container.', calls: [{ command: "ssh me@g7 'docker exec llm vllm bench serve --model Qwen/Qwen2.5-72B-Instruct --dataset-name random --num-prompts 16 2>&1 | tail -2'", output: 'Successful requests:                     16\nOutput token throughput (tok/s):         512.40' }] },
    { role: 'assistant', text: 'It serves on v0.8.5.' },
  ],
};

/** A chat completion whose status code curl printed through its -w format, beside the time it took. */
const WRITE_OUT_CODE: SyntheticSession = {
  id: 'syn-curl-write-out',
  title: 'The status code printed by curl -w beside the time',
  steps: [
    { role: 'user', text: 'Serve meta-llama/Llama-3.1-8B-Instruct with vLLM on n2, port 8000.' },
    { role: 'assistant', text: 'Starting.', calls: [{ command: "ssh me@n2 'docker run -d --name v --gpus all -p 8000:8000 vllm/vllm-openai:v0.8.5 --model meta-llama/Llama-3.1-8B-Instruct'", output: 'abc123' }] },
    { role: 'assistant', text: 'A completion.', calls: [{ command: "ssh me@n2 'sleep 120; curl -s -o /tmp/r.json -w \"%{http_code} %{time_total}s\\n\" localhost:8000/v1/chat/completions -d @/tmp/req.json'", output: '200 1.804s' }] },
    { role: 'assistant', text: 'It answers.' },
  ],
};

/** A compose file read after another command in the same call, its image tag bumped with sed, and the stack fixed through its .env file. */
const COMPOSE_READ_IN_CHAIN: SyntheticSession = {
  id: 'syn-compose-read-in-chain',
  title: 'A compose stack read with ls && cat, the tag bumped, an .env variable removed',
  steps: [
    { role: 'user', text: 'Bring up TGI with Qwen/Qwen2.5-32B-Instruct on r1 from the compose dir ~/llm, port 8080.' },
    { role: 'assistant', text: 'Looking at the stack.', calls: [{ command: "ssh me@r1 'ls -la ~/llm && cat ~/llm/docker-compose.yml'", output: 'total 12\n-rw------- 1 me me  120 .env\n-rw-r--r-- 1 me me  300 docker-compose.yml\nservices:\n  tgi:\n    image: ghcr.io/huggingface/text-generation-inference:2.0.4-rocm\n    env_file: .env\n    ports:\n      - "8080:80"\n' }] },
    { role: 'assistant', text: 'Bumping the tag.', calls: [{ command: "ssh me@r1 \"cd ~/llm && sed -i 's#text-generation-inference:2.0.4-rocm#text-generation-inference:3.0.2-rocm#' docker-compose.yml\"", output: '' }] },
    { role: 'assistant', text: 'Starting.', calls: [{ command: "ssh me@r1 'cd ~/llm && docker compose up -d && sleep 60 && docker compose logs --tail 5 tgi'", output: ' Container llm-tgi-1  Started\nllm-tgi-1  | RuntimeError: HIP error: hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\nllm-tgi-1  | Error: ShardCannotStart' }] },
    { role: 'assistant', text: 'The .env forces an old gfx version; removing it.', calls: [{ command: "ssh me@r1 \"cd ~/llm && sed -i '/^HSA_OVERRIDE_GFX_VERSION=/d' .env && docker compose up -d\"", output: ' Container llm-tgi-1  Started' }] },
    { role: 'assistant', text: 'Checking.', calls: [{ command: "ssh me@r1 'sleep 90; curl -s -o /dev/null -w \"%{http_code}\" localhost:8080/health'", output: '200' }] },
    { role: 'assistant', text: 'It serves.' },
  ],
};

/** A server started in a detached tmux session after `cd` into its checkout, its help asked first. */
const TMUX_LAUNCH: SyntheticSession = {
  id: 'syn-tmux-launch',
  title: 'LMDeploy asked for help, then started in tmux; a failed launch before it',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-14B-Instruct-AWQ with LMDeploy on a10, port 23333.' },
    { role: 'assistant', text: 'Installing.', calls: [{ command: "ssh me@a10 'python3 -m venv ~/venvs/lmd && ~/venvs/lmd/bin/pip install lmdeploy==0.7.3 2>&1 | tail -1'", output: 'Successfully installed lmdeploy-0.7.3' }] },
    { role: 'assistant', text: 'Its options.', calls: [{ command: "ssh me@a10 '~/venvs/lmd/bin/lmdeploy serve api_server --help | head -3'", output: 'usage: lmdeploy serve api_server [-h] model_path' }] },
    { role: 'assistant', text: 'Starting it in tmux.', calls: [{ command: "ssh me@a10 'tmux new -d -s lmd \"~/venvs/lmd/bin/lmdeploy serve api_server Qwen/Qwen2.5-14B-Instruct-AWQ --model-format awq --server-port 23333 2>&1 | tee /tmp/lmd.log\"; sleep 60; tail -2 /tmp/lmd.log'", output: 'INFO:     Started server process [4242]\nINFO:     Uvicorn running on http://0.0.0.0:23333' }] },
    { role: 'assistant', text: 'Checking.', calls: [{ command: "ssh me@a10 'curl -s localhost:23333/v1/models'", output: '{"object":"list","data":[{"id":"Qwen/Qwen2.5-14B-Instruct-AWQ"}]}' }] },
    { role: 'assistant', text: 'It serves.' },
  ],
};

/** A server in screen, then judged against the rate the user asked for, with no stronger word than a number below it. */
const BELOW_TARGET: SyntheticSession = {
  id: 'syn-below-target-rate',
  title: 'A rate below the one the user asked for',
  steps: [
    { role: 'user', text: 'Serve Qwen2.5-32B-Instruct exl2 with tabbyAPI on p1; it needs at least 15 tok/s for the bot.' },
    { role: 'assistant', text: 'Starting in screen.', calls: [{ command: "ssh me@p1 'cd ~/tabbyAPI && screen -dmS tabby ~/venvs/t/bin/python main.py; sleep 60; curl -s localhost:5000/health'", output: '{"status":"healthy"}' }] },
    { role: 'assistant', text: 'It answers, but generation runs at 4.2 T/s.' },
    { role: 'assistant', text: 'That is what this card does in FP16. I will leave it here for tonight.' },
  ],
};

const VLLM_ASK = { role: 'user' as const, text: 'Serve meta-llama/Llama-3.1-8B-Instruct with vLLM on n1, port 8000.' };
const END = { role: 'assistant' as const, text: 'Stopping here for now.' };

/** A foreground server whose failure a pipe hid: tail's exit 0, the output shows the container gone. */
const HIDDEN_BY_TAIL: SyntheticSession = {
  id: 'syn-hidden-by-tail',
  title: 'A foreground docker run piped into tail',
  steps: [VLLM_ASK, { role: 'assistant', text: 'Starting.', calls: [{ command: "ssh me@n1 'docker run --rm --gpus all -p 8000:8000 vllm/vllm-openai:v0.6.0 --model meta-llama/Llama-3.1-8B-Instruct 2>&1 | tail -n 3; echo exit=$?'", output: 'INFO 12-01 loading weights\nERROR 12-01 12:00:01 [core.py:12] EngineCore hit an exception\nexit=0' }] }, END],
};

/** A detached start whose status a `docker ps` in the same call shows, the call ending on `echo done`. */
const EXITED_STATUS: SyntheticSession = {
  id: 'syn-exited-status',
  title: 'A detached container listed as exited',
  steps: [VLLM_ASK, { role: 'assistant', text: 'Starting.', calls: [{ command: "ssh me@n1 'docker run -d --name v --gpus all -p 8000:8000 vllm/vllm-openai:v0.6.0 --model meta-llama/Llama-3.1-8B-Instruct; sleep 60; docker ps -a --filter name=v --format \"{{.Status}}\"; echo done'", output: 'abc\nExited (1) 10 seconds ago\ndone' }] }, END],
};

/** A launch left running with nohup into a log file, and that log read later: its error is the launch's, generic as it is. */
const NOHUP_LOG: SyntheticSession = {
  id: 'syn-nohup-log',
  title: 'A nohup launch and a read of its log',
  steps: [
    VLLM_ASK,
    { role: 'assistant', text: 'Starting in the background.', calls: [{ command: "ssh me@n1 'nohup ~/venv/bin/vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000 > ~/vllm.log 2>&1 &'", output: '' }] },
    { role: 'assistant', text: 'Its log.', calls: [{ command: "ssh me@n1 'sleep 60; tail -n 5 /home/me/vllm.log'", output: 'Traceback (most recent call last):\nValueError: Unsupported dtype bfloat16 on this GPU, use --dtype half' }] },
    END,
  ],
};

/** The failing launch's log: an INFO line that says "not supported", and the error itself behind a worker's log prefix. */
const LOG_LEVELS: SyntheticSession = {
  id: 'syn-log-levels',
  title: 'An INFO line with a failure word, the error behind a log prefix',
  steps: [
    VLLM_ASK,
    { role: 'assistant', text: 'Starting.', calls: [{ command: "ssh me@n1 '~/venv/bin/vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000 -tp 4 2>&1 | tail -n 4'", exit: 1, output: '(VllmWorker rank=0 pid=7) INFO 04-08 10:06:24 [custom_all_reduce.py:134] Custom allreduce is disabled because it is not supported on more than two PCIe-only GPUs.\n(VllmWorker rank=0 pid=7) ERROR 04-08 10:07:14 [multiproc_executor.py:470] RuntimeError: Invalid tile shape for this kernel: max_shared_mem = 101376 and the requested blocks need 120000 bytes of shared memory per block on this device\nRuntimeError: Engine core initialization failed. See root cause above.' }] },
    END,
  ],
};

/** Ollama answers its generate endpoint with `response`; a check piped into jq is read from what jq printed. */
const OLLAMA_ANSWERS: SyntheticSession = {
  id: 'syn-ollama-answers',
  title: 'Ollama in docker, checked through jq',
  steps: [
    { role: 'user', text: 'Run ollama with llama3.2:3b in docker on c1.' },
    { role: 'assistant', text: 'Starting.', calls: [{ command: "ssh me@c1 'docker run -d --name o -p 11434:11434 ollama/ollama:0.5.7 && docker exec o ollama pull llama3.2:3b'", output: 'abc\nsuccess' }] },
    { role: 'assistant', text: 'A generation.', calls: [{ command: "ssh me@c1 'curl -s localhost:11434/api/generate -d @req.json | jq \"{response, eval_count}\"'", output: '{\n  "response": "A reverse proxy forwards requests.",\n  "eval_count": 9\n}' }] },
    { role: 'assistant', text: 'It answers.' },
  ],
};
const OLLAMA_LISTED: SyntheticSession = {
  id: 'syn-ollama-listed',
  title: 'Ollama in docker, its models listed through jq',
  steps: [
    { role: 'user', text: 'Run ollama with llama3.2:3b in docker on c1.' },
    { role: 'assistant', text: 'Starting.', calls: [{ command: "ssh me@c1 'docker run -d --name o -p 11434:11434 ollama/ollama:0.5.7'", output: 'abc' }] },
    { role: 'assistant', text: 'Its models.', calls: [{ command: "ssh me@c1 'curl -s localhost:11434/api/tags | jq -r \".models[].name\"'", output: 'llama3.2:3b' }] },
    { role: 'assistant', text: 'It is up.' },
  ],
};

const SESSIONS = [OLLAMA_ANSWERS, OLLAMA_LISTED, LOG_LEVELS, HIDDEN_BY_TAIL, EXITED_STATUS, NOHUP_LOG, NAME_REUSED, WRITE_OUT_CODE, COMPOSE_READ_IN_CHAIN, TMUX_LAUNCH, BELOW_TARGET];
const { tree, candidate, names } = syntheticTrees(SESSIONS, 'retrace-tree-seventh-');

describe('the seventh round of general rules', () => {
  it('a check run inside a container checks the image that container runs now, and a check with no port reaches the last server, not a launch that mapped none', () => {
    expect(names(NAME_REUSED.id)).toEqual(['vllm/vllm-openai:v0.6.0 rejected', 'vllm/vllm-openai:v0.8.5 accepted']);
    expect(candidate(NAME_REUSED.id, 'vllm/vllm-openai:v0.8.5')?.reason).toContain('Successful requests');
  });

  it('the status code curl printed through its -w format is read where the format puts it', () => {
    expect(names(WRITE_OUT_CODE.id)).toEqual(['vllm/vllm-openai:v0.8.5 accepted']);
    expect(candidate(WRITE_OUT_CODE.id, 'vllm/vllm-openai:v0.8.5')?.reason).toContain('200');
  });

  it('a compose file read as the last command of a chain is known: the stack that served after a fix in its .env is its image, accepted', () => {
    expect(names(COMPOSE_READ_IN_CHAIN.id)).toContain('ghcr.io/huggingface/text-generation-inference:3.0.2-rocm accepted');
    expect(candidate(COMPOSE_READ_IN_CHAIN.id, 'ghcr.io/huggingface/text-generation-inference:3.0.2-rocm')?.reason).toContain('200');
  });

  it('a command a detached tmux or screen session starts is run (a launch), and a launcher asked for --help starts nothing', () => {
    expect(names(TMUX_LAUNCH.id)).toEqual(['lmdeploy==0.7.3 accepted']);
    const evidence = tree(TMUX_LAUNCH.id)?.candidates[0]?.evidence.map((e) => e.kind);
    expect(evidence).toContain('serve');
    expect(evidence?.filter((k) => k === 'serve')).toHaveLength(1);
  });

  it('a rate measured below the one the user asked for is too slow, even with no word that says so', () => {
    expect(names(BELOW_TARGET.id)).toEqual(['ExLlamaV2 / TabbyAPI rejected']);
    expect(candidate(BELOW_TARGET.id, 'ExLlamaV2 / TabbyAPI')?.reason).toMatch(/too slow.*4\.2 T\/s/);
  });

  it('a foreground server piped into a filter, its call back with exit 0, is read from its output: gone, with no line that says it came up', () => {
    expect(names(HIDDEN_BY_TAIL.id)).toEqual(['vllm/vllm-openai:v0.6.0 rejected']);
  });

  it('a container listed as exited with a failing code failed, whatever the call\'s `echo done` returned', () => {
    expect(names(EXITED_STATUS.id)).toEqual(['vllm/vllm-openai:v0.6.0 rejected']);
    expect(candidate(EXITED_STATUS.id, 'vllm/vllm-openai:v0.6.0')?.reason).toContain('Exited (1)');
  });

  it('a read of the log a launch wrote belongs to that launch, and its error decides it', () => {
    expect(names(NOHUP_LOG.id)).toEqual(['vLLM rejected']);
    expect(candidate(NOHUP_LOG.id, 'vLLM')?.reason).toContain('ValueError: Unsupported dtype');
  });

  it('a line logged at INFO is no failure, and the error behind a log prefix is the reason, before the engine\'s "failed to start"', () => {
    expect(names(LOG_LEVELS.id)).toEqual(['vLLM rejected']);
    const reason = candidate(LOG_LEVELS.id, 'vLLM')?.reason ?? '';
    expect(reason).not.toContain('allreduce');
    expect(reason).toMatch(/^RuntimeError: Invalid tile shape/);
  });

  it('Ollama\'s generate answer (`response`) is a completion, and a check piped into a parser is read from what it printed', () => {
    expect(names(OLLAMA_ANSWERS.id)).toEqual(['ollama/ollama:0.5.7 accepted']);
    expect(candidate(OLLAMA_ANSWERS.id, 'ollama/ollama:0.5.7')?.reason).toContain('completion answered');
    expect(names(OLLAMA_LISTED.id)).toEqual(['ollama/ollama:0.5.7 accepted']);
  });
});

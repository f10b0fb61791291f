import { describe, expect, it } from 'vitest';
import type { SyntheticSession } from './helpers/synthetic-session.js';
import { syntheticTrees } from './helpers/synthetic-trees.js';

/**
 * Launches whose settings live in a file the session wrote or edited between launches: a systemd
 * unit whose ExecStart runs over several lines. Each story is a small session of its own, with
 * invented names (none is a story of the eval corpus).
 */
const MODELS_LISTED = '{"object":"list","data":[{"id":"acme-7b","object":"model"}]}';

const unit = (extra: string): string => [
  '[Unit]', 'Description=vLLM', '[Service]',
  'ExecStart=/srv/venv/bin/vllm serve acme/Acme-7B-Instruct \\',
  `  --served-model-name acme-7b ${extra}\\`,
  '  --host 127.0.0.1 --port 8000',
  'Restart=on-failure', '[Install]', 'WantedBy=multi-user.target',
].join('\n');

const CONTINUED_UNIT: SyntheticSession = {
  id: 'syn-unit-continued',
  title: 'vLLM from a unit whose ExecStart is continued over lines',
  steps: [
    { role: 'user', text: 'Serve acme/Acme-7B-Instruct with vLLM as a systemd service on box7.' },
    { role: 'assistant', text: 'Installing.', calls: [{ command: "ssh me@box7 'python3 -m venv /srv/venv && /srv/venv/bin/pip install vllm==0.8.5 | tail -1'", output: 'Successfully installed vllm-0.8.5' }] },
    { role: 'assistant', text: 'The unit.', calls: [{ command: '', tool: 'Write', input: { file_path: '/home/ops/deploy/vllm.service', content: unit('') }, output: 'File created' }] },
    {
      role: 'assistant', text: 'Starting it.',
      calls: [{
        command: "ssh me@box7 'sudo cp deploy/vllm.service /etc/systemd/system/ && sudo systemctl enable --now vllm; sleep 60; journalctl -u vllm -n 3 --no-pager'",
        output: 'ValueError: The model\'s max seq len (32768) is larger than the maximum number of tokens that can be stored in KV cache (17664). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.',
      }],
    },
    { role: 'assistant', text: 'Shorter context.', calls: [{ command: '', tool: 'Write', input: { file_path: '/home/ops/deploy/vllm.service', content: unit('--max-model-len 16384 ') }, output: 'File written' }] },
    { role: 'assistant', text: 'Restarting.', calls: [{ command: "ssh me@box7 'sudo cp deploy/vllm.service /etc/systemd/system/ && sudo systemctl daemon-reload && sudo systemctl restart vllm'", output: '' }] },
    { role: 'assistant', text: 'Checking.', calls: [{ command: "ssh me@box7 'sleep 60; curl -s localhost:8000/v1/models'", output: MODELS_LISTED }] },
    { role: 'assistant', text: 'Serving with a 16k context.' },
  ],
};

const COMPOSE = [
  'services:', '  tabby:', '    image: ghcr.io/theroyallab/tabbyapi:latest', '    ports:', '      - "5000:5000"',
  '    volumes:', '      - /home/kit/models:/app/models', '      - ./config.yml:/app/config.yml',
].join('\n');
const OOM = 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 160.00 MiB. GPU 1 has a total capacity of 23.64 GiB of which 83.25 MiB is free.';

const TABBY_CONFIG: SyntheticSession = {
  id: 'syn-tabby-config',
  title: 'TabbyAPI whose config.yml is edited between launches',
  steps: [
    { role: 'user', text: 'Serve Zeta-70B exl2 with tabbyAPI via docker compose in ~/tabby on the two GPUs of this box.' },
    {
      role: 'assistant', text: 'Looking at the setup.',
      calls: [
        { command: '', tool: 'Read', input: { file_path: '/home/kit/tabby/docker-compose.yml' }, output: COMPOSE },
        { command: 'grep -nE "^\\s+(model_name|max_seq_len|cache_mode):" ~/tabby/config.yml', output: '55:  model_name:\n71:  max_seq_len:\n121:  cache_mode: FP16' },
      ],
    },
    {
      role: 'assistant', text: 'Setting the model and context.',
      calls: [
        { command: '', tool: 'Edit', input: { file_path: '/home/kit/tabby/config.yml', old_string: '  model_name:', new_string: '  model_name: Zeta-70B-exl2_5.0bpw' }, output: 'ok' },
        { command: '', tool: 'Edit', input: { file_path: '/home/kit/tabby/config.yml', old_string: '  max_seq_len:', new_string: '  max_seq_len: 32768' }, output: 'ok' },
      ],
    },
    { role: 'assistant', text: 'Starting.', calls: [{ command: 'cd ~/tabby && docker compose up -d', output: ' Container tabby-tabby-1  Started' }] },
    { role: 'assistant', text: 'Logs.', calls: [{ command: 'cd ~/tabby && sleep 90; docker compose logs tabby | grep -E "Error|memory" | tail -2', output: OOM }] },
    { role: 'assistant', text: 'The KV cache does not fit: a Q4 cache.', calls: [{ command: "cd ~/tabby && docker compose stop tabby && sed -i 's/^  cache_mode: FP16/  cache_mode: Q4/' config.yml && docker compose start tabby", output: ' Container tabby-tabby-1  Started' }] },
    { role: 'assistant', text: 'Logs.', calls: [{ command: 'cd ~/tabby && sleep 90; docker compose logs --since 2m tabby | grep -E "Error|memory" | tail -2', output: OOM }] },
    { role: 'assistant', text: 'Still out of memory: a smaller quant.', calls: [{ command: 'hf download acme/Zeta-70B-exl2 --revision 4.0bpw --local-dir ~/models/Zeta-70B-exl2_4.0bpw', output: '/home/kit/models/Zeta-70B-exl2_4.0bpw' }] },
    { role: 'assistant', text: 'Pointing the config at it.', calls: [{ command: '', tool: 'Edit', input: { file_path: '/home/kit/tabby/config.yml', old_string: '  model_name: Zeta-70B-exl2_5.0bpw', new_string: '  model_name: Zeta-70B-exl2_4.0bpw' }, output: 'ok' }] },
    { role: 'assistant', text: 'Recreating.', calls: [{ command: 'cd ~/tabby && docker compose up -d --force-recreate && sleep 120 && curl -s localhost:5000/v1/models', output: '{"object":"list","data":[{"id":"Zeta-70B-exl2_4.0bpw"}]}' }] },
    { role: 'assistant', text: 'Serving the 4.0bpw quant with a Q4 cache.' },
  ],
};

const LOADED = 'INFO:     Model successfully loaded.\nINFO:     Uvicorn running on http://0.0.0.0:5000 (Press CTRL+C to quit)';
const launch = "~/venvs/tb/bin/python main.py 2>&1 | tee ~/tb.log\" && sleep 60 && tail -2 ~/tb.log'";

const SAMPLE_CONFIG: SyntheticSession = {
  id: 'syn-tabby-sample-config',
  title: 'tabbyAPI from a checkout, its config copied from the sample and set with sed',
  steps: [
    { role: 'user', text: 'Run tabbyAPI on oldbox (me@oldbox) with Zeta-32B exl2 over both GPUs; it must reach 10 tok/s.' },
    { role: 'assistant', text: 'Installing from the checkout.', calls: [{ command: "ssh me@oldbox 'cd ~/tabbyAPI && python3 -m venv ~/venvs/tb && ~/venvs/tb/bin/pip install -e .[cu121] | tail -1'", output: 'Successfully installed exllamav2-0.2.8 tabbyAPI-0.0.1' }] },
    {
      role: 'assistant', text: 'The config, from the sample.',
      calls: [{ command: "ssh me@oldbox 'cd ~/tabbyAPI && cp config_sample.yml config.yml && grep -nE \"^\\s+(model_name|cache_mode):\" config.yml'", output: '84:  model_name:\n173:  cache_mode: FP16' }],
    },
    { role: 'assistant', text: 'Setting the model and a Q4 cache.', calls: [{ command: "ssh me@oldbox \"cd ~/tabbyAPI && sed -i -e 's/^  model_name:.*/  model_name: Zeta-32B-exl2/' -e 's/^  cache_mode: FP16/  cache_mode: Q4/' config.yml\"", output: '' }] },
    { role: 'assistant', text: 'Starting.', calls: [{ command: `ssh me@oldbox 'cd ~/tabbyAPI && tmux new -d -s tb "${launch}`, output: LOADED }] },
    { role: 'assistant', text: 'Speed.', calls: [{ command: "ssh me@oldbox 'curl -s -o /dev/null -w \"%{http_code}\" localhost:5000/v1/chat/completions -d @req.json; tail -1 ~/tb.log'", output: '200\nINFO:     Metrics: 200 tokens generated in 64.1 seconds (Generate: 3.1 T/s)' }] },
    { role: 'assistant', text: '3.1 T/s, far below 10. Trying an FP16 cache.', calls: [{ command: `ssh me@oldbox 'cd ~/tabbyAPI && tmux kill-session -t tb; sed -i "s/^  cache_mode: Q4/  cache_mode: FP16/" config.yml && tmux new -d -s tb "${launch}`, output: LOADED }] },
    { role: 'assistant', text: 'Speed.', calls: [{ command: "ssh me@oldbox 'curl -s -o /dev/null -w \"%{http_code}\" localhost:5000/v1/chat/completions -d @req.json; tail -1 ~/tb.log'", output: '200\nINFO:     Metrics: 200 tokens generated in 60.2 seconds (Generate: 3.3 T/s)' }] },
    { role: 'assistant', text: 'Still 3.3 T/s: too slow on these cards either way.' },
  ],
};

const { names } = syntheticTrees([CONTINUED_UNIT, TABBY_CONFIG, SAMPLE_CONFIG], 'retrace-tree10-files-');

describe('a config file known only from grep lines, set with several sed scripts', () => {
  it('reads the cache mode each launch ran with from the lines grep showed and the sed scripts applied to them', () => {
    expect(names(SAMPLE_CONFIG.id)).toContain('cache_mode FP16 rejected');
  });
});

describe('a config file the server reads, edited between launches', () => {
  it('tells the launches apart by the settings the file held when each ran: the weights first, then a cache mode changed on them', () => {
    expect(names(TABBY_CONFIG.id)).toEqual([
      'ghcr.io/theroyallab/tabbyapi accepted', 'Zeta-70B-exl2_5.0bpw rejected', '5.0bpw cache_mode Q4 rejected', 'Zeta-70B-exl2_4.0bpw accepted',
    ]);
  });
});

describe('a systemd unit whose ExecStart is continued with backslashes', () => {
  it('reads the whole command: the option added to the unit between launches is an approach', () => {
    expect(names(CONTINUED_UNIT.id)).toContain('--max-model-len 16384 accepted');
  });
});

import type { Prng } from '../../lib/prng.js';
import type { Fleet, ImageSpec, ModelSpec } from '../story/catalog.js';

/** What a serving engine prints: the start-up log (long), health and API answers, a benchmark. */

export function serveCommand(image: ImageSpec, model: ModelSpec, fleet: Fleet): string {
  const tp = fleet.hosts.length * fleet.gpu.count;
  if (image.framework === 'sglang') {
    return `python3 -m sglang.launch_server --model-path ${model.repo} --tp ${tp} --nnodes ${fleet.hosts.length} --node-rank 0 --dist-init-addr ${fleet.hosts[0]?.linkAddress}:20000 --host 0.0.0.0 --port 8000 --attention-backend triton --mem-fraction-static 0.7`;
  }
  const parsers = `--enable-auto-tool-choice --tool-call-parser ${model.toolParser}${model.reasoningParser ? ` --reasoning-parser ${model.reasoningParser}` : ''}`;
  return `vllm serve ${model.repo} --max-model-len ${model.maxModelLen} --gpu-memory-utilization 0.7 --port 8000 --host 0.0.0.0 --enable-prefix-caching ${parsers} -tp ${tp} --distributed-executor-backend ray --max-num-batched-tokens 8192`;
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().slice(5, 19).replace('T', ' ').replace('-', '-');
}

/**
 * The log of an engine starting: version, the argument dump, shard loading, compilation, CUDA
 * graphs, KV cache, routes; then a few requests. `fails` ends it with the GB10 kernel error instead.
 */
export function serveLog(prng: Prng, image: ImageSpec, model: ModelSpec, fleet: Fleet, startMs: number, fails: boolean): string {
  let at = startMs;
  const out: string[] = [];
  const info = (file: string, text: string): void => {
    at += prng.int(5, 900);
    out.push(`INFO ${stamp(at)} [${file}:${prng.int(80, 1900)}] ${text}`);
  };
  info('__init__.py', 'Automatically detected platform cuda.');
  info('api_server.py', `vLLM API server version ${image.version}`);
  const args = [
    `model_tag='${model.repo}'`, "host='0.0.0.0'", 'port=8000', 'uvicorn_log_level=\'info\'', 'allow_credentials=False',
    "allowed_origins=['*']", "allowed_methods=['*']", "allowed_headers=['*']", 'api_key=None', 'lora_modules=None',
    'chat_template=None', `tool_call_parser='${model.toolParser}'`, 'enable_auto_tool_choice=True',
    `max_model_len=${model.maxModelLen}`, 'gpu_memory_utilization=0.7', 'enable_prefix_caching=True',
    `tensor_parallel_size=${fleet.hosts.length * fleet.gpu.count}`, "distributed_executor_backend='ray'",
    'max_num_batched_tokens=8192', 'max_num_seqs=256', 'swap_space=4', 'kv_cache_dtype=\'auto\'', 'seed=0',
    'trust_remote_code=False', 'download_dir=None', "load_format='auto'", "dtype='auto'", 'quantization=None',
    'enforce_eager=False', 'disable_custom_all_reduce=False', 'compilation_config={"level":3,"cudagraph_mode":"FULL_AND_PIECEWISE"}',
  ];
  info('utils.py', `non-default args: {${args.join(', ')}}`);
  info('config.py', `This model supports multiple tasks: {'generate', 'reward', 'classify', 'embed'}. Defaulting to 'generate'.`);
  info('config.py', `Resolved architecture: ${model.architecture}`);
  info('ray_utils.py', `Connecting to existing Ray cluster at address: ${fleet.hosts[0]?.linkAddress}:6379...`);
  info('worker.py', `Connected to Ray cluster. View the dashboard at 127.0.0.1:8265`);
  for (const [rank, host] of fleet.hosts.entries()) {
    info('parallel_state.py', `rank ${rank} in world size ${fleet.hosts.length} is assigned as DP rank 0, PP rank 0, TP rank ${rank}, EP rank ${rank} (${host.linkAddress})`);
    info('pynccl.py', `vLLM is using nccl==2.28.${prng.int(1, 9)} over NET/IB/0/GDRDMA on ${fleet.hca}:1`);
  }
  if (fails) {
    info('gpu_model_runner.py', `Starting to load model ${model.repo}...`);
    out.push(
      `ERROR ${stamp((at += 2000))} [core.py:${prng.int(600, 800)}] EngineCore failed to start.`,
      'Traceback (most recent call last):',
      '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 691, in run_engine_core',
      '    engine_core = EngineCoreProc(*args, **kwargs)',
      '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_worker.py", line 201, in init_device',
      '    torch.cuda.set_device(self.device)',
      'torch.AcceleratorError: CUDA error: no kernel image is available for execution on the device',
      'CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.',
      `NVIDIA ${fleet.gpu.name} with CUDA capability sm_${fleet.gpu.computeCap.replace('.', '')} is not compatible with the current PyTorch installation.`,
      'The current PyTorch install supports CUDA capabilities sm_80 sm_86 sm_90 sm_100 sm_120 compute_120.',
      `RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}`,
    );
    return `${out.join('\n')}\n`;
  }
  for (let shard = 1; shard <= model.shards; shard += 1) {
    at += prng.int(2000, 9000);
    const pct = Math.round((shard / model.shards) * 100);
    out.push(`Loading safetensors checkpoint shards: ${String(pct).padStart(3)}% Completed | ${shard}/${model.shards} [${Math.floor((at - startMs) / 60000)}:${String(Math.floor(((at - startMs) / 1000) % 60)).padStart(2, '0')}<00:${String(prng.int(10, 59))}, ${prng.skewed(5.3, 0.2).toFixed(2)}s/it]`);
  }
  info('default_loader.py', `Loading weights took ${((at - startMs) / 1000).toFixed(2)} seconds`);
  info('gpu_model_runner.py', `Model loading took ${(model.sizeGb / fleet.hosts.length).toFixed(4)} GiB and ${((at - startMs) / 1000 + 3).toFixed(6)} seconds`);
  info('backends.py', `Using cache directory: /root/.cache/vllm/torch_compile_cache/${prng.hex(10)}/rank_0_0/backbone for vLLM's torch.compile`);
  info('monitor.py', `torch.compile takes ${prng.skewed(70, 0.3).toFixed(2)} s in total`);
  info('gpu_worker.py', `Available KV cache memory: ${prng.skewed(40, 0.2).toFixed(2)} GiB`);
  info('kv_cache_utils.py', `GPU KV cache size: ${prng.int(400_000, 900_000).toLocaleString('en-US')} tokens`);
  info('kv_cache_utils.py', `Maximum concurrency for ${model.maxModelLen.toLocaleString('en-US')} tokens per request: ${prng.skewed(3.4, 0.3).toFixed(2)}x`);
  for (let i = 0; i <= 67; i += 1) {
    if (i % 4 !== 0 && i !== 67) continue;
    out.push(`Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): ${String(Math.round((i / 67) * 100)).padStart(3)}%|${'█'.repeat(Math.round((i / 67) * 10)).padEnd(10)}| ${i}/67 [00:${String(Math.round(i / 3)).padStart(2, '0')}<00:${String(Math.round((67 - i) / 3)).padStart(2, '0')},  ${prng.skewed(3.2, 0.1).toFixed(2)}it/s]`);
  }
  info('gpu_model_runner.py', `Graph capturing finished in ${prng.int(18, 40)} secs, took ${prng.skewed(1.2, 0.3).toFixed(2)} GiB`);
  info('core.py', `init engine (profile, create kv cache, warmup model) took ${prng.skewed(140, 0.3).toFixed(2)} seconds`);
  info('api_server.py', 'Starting vLLM API server 0 on http://0.0.0.0:8000');
  for (const route of ['/openapi.json', '/docs', '/docs/oauth2-redirect', '/redoc', '/health', '/load', '/ping', '/tokenize', '/detokenize', '/v1/models', '/version', '/v1/responses', '/v1/chat/completions', '/v1/completions', '/v1/embeddings', '/pooling', '/classify', '/score', '/v1/score', '/v1/audio/transcriptions', '/rerank', '/v1/rerank', '/v2/rerank', '/invocations', '/metrics']) {
    info('launcher.py', `Route: ${route}, Methods: ${route.startsWith('/v1/') && route !== '/v1/models' ? 'POST' : 'GET, HEAD'}`);
  }
  out.push('INFO:     Started server process [1]', 'INFO:     Waiting for application startup.', 'INFO:     Application startup complete.');
  for (let i = 0; i < prng.int(3, 40); i += 1) out.push(`INFO:     127.0.0.1:${prng.int(30000, 65000)} - "GET /health HTTP/1.1" 200 OK`);
  return `${out.join('\n')}\n`;
}

export function modelsJson(prng: Prng, model: ModelSpec, createdSeconds: number): string {
  return `${JSON.stringify({ object: 'list', data: [{ id: model.repo, object: 'model', created: createdSeconds, owned_by: 'vllm', root: model.repo, parent: null, max_model_len: model.maxModelLen, permission: [{ id: `modelperm-${prng.hex(32)}`, object: 'model_permission', created: createdSeconds, allow_create_engine: false, allow_sampling: true, allow_logprobs: true, allow_search_indices: false, allow_view: true, allow_fine_tuning: false, organization: '*', group: null, is_blocking: false }] }] }, null, 4)}\n`;
}

export function chatCompletion(prng: Prng, model: ModelSpec, createdSeconds: number): string {
  const prompt = prng.int(20, 60);
  const completion = prng.int(8, 120);
  return JSON.stringify({
    id: `chatcmpl-${prng.hex(32)}`,
    object: 'chat.completion',
    created: createdSeconds,
    model: model.repo,
    choices: [{ index: 0, message: { role: 'assistant', content: prng.pick(['ready', 'Ready.', 'Hello! The server is up and answering.', '4']), reasoning_content: null, tool_calls: [] }, logprobs: null, finish_reason: 'stop', stop_reason: null }],
    usage: { prompt_tokens: prompt, total_tokens: prompt + completion, completion_tokens: completion, prompt_tokens_details: null },
    prompt_logprobs: null,
  });
}

export function benchmarkOutput(prng: Prng, model: ModelSpec, prompts: number): string {
  const duration = prng.skewed(180, 0.3);
  const rows: [string, string][] = [
    ['Successful requests:', String(prompts)],
    ['Benchmark duration (s):', duration.toFixed(2)],
    ['Total input tokens:', String(prompts * 1024)],
    ['Total generated tokens:', String(prompts * prng.int(200, 256))],
    ['Request throughput (req/s):', (prompts / duration).toFixed(2)],
    ['Output token throughput (tok/s):', prng.skewed(260, 0.3).toFixed(2)],
    ['Total Token throughput (tok/s):', prng.skewed(1500, 0.3).toFixed(2)],
    ['Mean TTFT (ms):', prng.skewed(900, 0.4).toFixed(2)],
    ['Median TTFT (ms):', prng.skewed(800, 0.4).toFixed(2)],
    ['P99 TTFT (ms):', prng.skewed(4000, 0.4).toFixed(2)],
    ['Mean TPOT (ms):', prng.skewed(45, 0.3).toFixed(2)],
    ['Median TPOT (ms):', prng.skewed(44, 0.3).toFixed(2)],
    ['P99 TPOT (ms):', prng.skewed(70, 0.3).toFixed(2)],
    ['Mean ITL (ms):', prng.skewed(44, 0.3).toFixed(2)],
    ['Median ITL (ms):', prng.skewed(40, 0.3).toFixed(2)],
    ['P99 ITL (ms):', prng.skewed(160, 0.3).toFixed(2)],
  ];
  const progress: string[] = [];
  for (let done = 0; done <= prompts; done += Math.max(1, Math.floor(prompts / 25))) {
    progress.push(`${String(Math.round((done / prompts) * 100)).padStart(3)}%|${'█'.repeat(Math.round((done / prompts) * 10)).padEnd(10)}| ${done}/${prompts} [${Math.floor((duration * done) / prompts)}s]`);
  }
  return [
    `Namespace(backend='openai-chat', base_url=None, host='127.0.0.1', port=8000, endpoint='/v1/chat/completions', dataset_name='random', model='${model.repo}', num_prompts=${prompts}, random_input_len=1024, random_output_len=256, max_concurrency=16, seed=0)`,
    'Starting initial single prompt test run...',
    'Initial test run completed. Starting main benchmark run...',
    'Traffic request rate: inf',
    'Maximum request concurrency: 16',
    ...progress,
    '============ Serving Benchmark Result ============',
    ...rows.map(([k, v]) => `${k.padEnd(40)}${v.padStart(10)}`),
    '==================================================',
    '',
  ].join('\n');
}

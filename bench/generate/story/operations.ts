import { servingLogTail } from '../outputs/docker.js';
import { nvidiaSmi } from '../outputs/host.js';
import { benchmarkOutput } from '../outputs/serve.js';
import type { ModelSpec } from './catalog.js';
import type { StepBuilder, TurnSource } from './steps.js';

/**
 * Day-two work on a deployed model, which is most of a long session: reading logs, watching GPU
 * memory, benchmarking, answering the user's follow-ups. Large outputs, few decisions.
 */
export function* operationTurns(b: StepBuilder, model: ModelSpec, steps: number): TurnSource {
  const { prng, fleet } = b;
  const head = fleet.hosts[0];
  if (!head) return;
  const container = `serve-${(model.repo.split('/')[1] ?? 'model').toLowerCase().slice(0, 16)}`;
  for (let i = 0; i < steps; i += 1) {
    if (prng.chance(0.08)) {
      yield b.prompt(prng.pick([
        `How is ${model.repo.split('/')[1]} holding up? Check the logs for errors and the KV cache usage.`,
        'Run the serving benchmark again with 64 prompts and compare with yesterday.',
        'Is the embeddings server on the worker still answering? Do not restart it.',
        'GPU memory on the head looks high in the dashboard, can you check?',
      ]));
    }
    const roll = prng.next();
    if (roll < 0.22) {
      const lines = prng.int(20, 120);
      yield b.step(prng.chance(0.4) ? 'Reading the recent server log for errors and throughput.' : null, null, [
        b.shell({ host: head, command: `docker logs --tail ${lines} ${container} 2>&1`, description: 'Recent server log', output: servingLogTail(prng, lines, b.now - 3_600_000), durationMs: prng.int(300, 2500) }),
      ]);
    } else if (roll < 0.52) {
      yield b.step(null, null, fleet.hosts.map((host) =>
        b.shell({ host, command: 'nvidia-smi', description: `GPU state on ${host.name}`, output: nvidiaSmi(prng, fleet, () => prng.int(60_000, fleet.gpu.memoryMiB - 2000), ['ray::RayWorkerWrapper', '/usr/bin/python3']), durationMs: prng.int(600, 2500) }),
      ));
    } else if (roll < 0.67) {
      const prompts = prng.pick([32, 64, 128, 256]);
      yield b.step(`Benchmark with ${prompts} random prompts at concurrency 16.`, null, [
        b.shell({ host: head, command: `docker exec ${container} vllm bench serve --backend openai-chat --endpoint /v1/chat/completions --model ${model.repo} --dataset-name random --random-input-len 1024 --random-output-len 256 --num-prompts ${prompts} --max-concurrency 16`, description: 'Serving benchmark', output: benchmarkOutput(prng, model, prompts), durationMs: prng.int(60_000, 115_000) }),
      ]);
    } else if (roll < 0.85) {
      yield b.step(null, null, [
        b.shell({ host: head, command: 'curl -s localhost:8000/metrics | grep -E "^vllm:(num_requests|gpu_cache_usage|prompt_tokens_total|generation_tokens_total)"', description: 'Engine metrics', output: metrics(b), durationMs: prng.int(100, 800) }),
      ]);
    } else {
      yield b.step(null, prng.pick([
        'Throughput is steady and there are no errors in the log; KV cache usage stays under 20%.',
        'The embeddings server on the worker is untouched and still answering on port 8001.',
        `GPU memory is where it should be for ${model.repo.split('/')[1]} at --gpu-memory-utilization 0.7; nothing leaked.`,
      ]), []);
    }
  }
}

function metrics(b: StepBuilder): string {
  const { prng } = b;
  const lines: string[] = [];
  for (const name of ['num_requests_running', 'num_requests_waiting', 'gpu_cache_usage_perc', 'prompt_tokens_total', 'generation_tokens_total']) {
    lines.push(`vllm:${name}{engine="0",model_name="served"} ${name.endsWith('total') ? prng.int(1e5, 9e8) : prng.next().toFixed(4)}`);
  }
  return `${lines.join('\n')}\n`;
}

import { beforeAll, describe, expect, it } from 'vitest';
import { loadTree } from '../../src/query/tree/queries.js';
import type { CandidateNode, DecisionTree } from '../../src/query/tree/types.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { readStore } from './helpers/derived-store.js';
import { writeSynthetic, type SyntheticSession } from './helpers/synthetic-session.js';

/**
 * General rules of the sixth round, each told by a small session of its own (none is a story of the
 * eval corpus): an override compose file that swaps the image, a candidate whose last try served
 * after earlier failures, a setting that defines the deployment changed on a working server.
 */
const BASE_COMPOSE = 'services:\n  llm:\n    image: vllm/vllm-openai:v0.9.0\n    command: --model Qwen/Qwen2.5-7B-Instruct --port 8000\n    ports: ["8000:8000"]\n';
const OVERRIDE_COMPOSE = 'services:\n  llm:\n    image: nvcr.io/nvidia/vllm:25.09-py3\n    entrypoint: ["vllm", "serve"]\n    command: Qwen/Qwen2.5-7B-Instruct --port 8000\n';

const COMPOSE_OVERRIDE: SyntheticSession = {
  id: 'syn-compose-override',
  title: 'An override compose file swaps the image for one host',
  steps: [
    { role: 'user', text: 'Bring up vLLM with Qwen/Qwen2.5-7B-Instruct on arm1 using our compose stack.' },
    { role: 'assistant', text: 'The stack first.', calls: [{ command: '', tool: 'Read', input: { file_path: '/home/ops/stack/compose.yaml' }, output: BASE_COMPOSE }] },
    { role: 'assistant', text: 'An override for this host.', calls: [{ command: '', tool: 'Write', input: { file_path: '/home/ops/stack/compose.arm.yaml', content: OVERRIDE_COMPOSE }, output: 'File created' }] },
    { role: 'assistant', text: 'Starting.', calls: [{ command: 'cd /home/ops/stack && DOCKER_HOST=ssh://me@arm1 docker compose -f compose.yaml -f compose.arm.yaml up -d', output: ' ✔ Container stack-llm-1  Started' }] },
    { role: 'assistant', text: 'Checking.', calls: [{ command: "ssh me@arm1 'sleep 60; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8000/v1/models'", output: '200' }] },
    { role: 'assistant', text: 'It answers.' },
  ],
};

const SESSIONS = [COMPOSE_OVERRIDE];
const trees = new Map<string, DecisionTree>();

beforeAll(async () => {
  const dir = tempDir('retrace-tree-sixth-');
  for (const session of SESSIONS) {
    const db = tempDbPath(dir);
    await writeSynthetic(db, session);
    trees.set(session.id, (await readStore(db, (store) => loadTree(store, session.id))) as DecisionTree);
  }
});

function candidate(id: string, name: string): CandidateNode | undefined {
  return trees.get(id)?.candidates.find((c) => c.name === name);
}

function names(id: string): string[] {
  return trees.get(id)?.candidates.map((c) => `${c.name} ${c.verdict}`) ?? [];
}

describe('the sixth round of general rules', () => {
  it('docker compose with several -f files runs the image the last file that sets it names', () => {
    expect(names(COMPOSE_OVERRIDE.id)).toEqual(['nvcr.io/nvidia/vllm:25.09-py3 accepted']);
    expect(candidate(COMPOSE_OVERRIDE.id, 'nvcr.io/nvidia/vllm:25.09-py3')?.reason).toContain('200');
  });
});

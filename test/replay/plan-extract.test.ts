import { beforeAll, describe, expect, it } from 'vitest';
import { isDestructive } from '../../src/replay/plan/destructive.js';
import type { Extraction } from '../../src/replay/plan/extract.js';
import { planFromStore } from '../../src/replay/plan/load.js';
import type { Plan } from '../../src/core/plan/schema.js';
import { secretsToReferences } from '../../src/replay/plan/secrets.js';
import { parsePlanYaml, PlanError, planToYaml } from '../../src/replay/plan/yaml.js';
import { Database } from '../../src/store/database.js';
import { ingestPaths } from '../helpers/ingest.js';
import { plantedSecrets, SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir('retrace-plan-');
let extraction: Extraction;
let plan: Plan;

beforeAll(async () => {
  const dbPath = tempDbPath(dir);
  await ingestPaths(dbPath, [SESSIONS_DIR]);
  // Writable: the plan reads the stored derivation, derived here on first use.
  const db = await Database.open(dbPath);
  try {
    extraction = await planFromStore(db, 'Qwen3.5');
    plan = extraction.plan;
  } finally {
    db.close();
  }
});

describe('the plan of the bundled sample', () => {
  it('keeps the accepted image\'s steps, in the recorded order, on the roles they ran on', () => {
    expect(plan.candidate).toBe('hellohal2064/vllm-qwen3.5-gb10');
    expect(plan.steps.map((s) => `${s.id}@${s.roles.join('+')}`)).toEqual([
      'stop-vllm-cluster-vllm-proxy@head',
      'stop-vllm-embeddings-vllm-reranker@head',
      'pull-image@head+worker',
      'install-huggingface-hub@head+worker',
      'download-model@head+worker',
      'remove-stopped-vllm-qwen35@head+worker',
      'start-cluster-head@head',
      'join-cluster@worker',
      'check-cluster@head',
      'serve-model@head',
      'check-health@head',
    ]);
    // Over ssh every command starts in the login's home: no step needs a working directory.
    expect(plan.steps.every((step) => step.workdir === null && step.file === null)).toBe(true);
  });

  it('infers the roles from the recorded hosts, keeping addresses and hostnames as comments only', () => {
    expect(plan.roles).toEqual({
      head: { recorded_address: '10.1.230.180', recorded_hostname: 'spark-1a32', recorded_user: 'aurora' },
      worker: { recorded_address: '10.1.230.181', recorded_hostname: 'spark-5be3', recorded_user: 'aurora' },
    });
    for (const step of plan.steps) expect(step.command).not.toMatch(/10\.1\.230\.|ssh /);
  });

  it('drops rejected probes, look-ups, searches and superseded attempts', () => {
    const text = JSON.stringify(plan.steps);
    for (const rejected of ['lmsysorg/sglang', 'scitrera/dgx-spark-sglang', 'vllm-spark:v0.14']) expect(text).not.toContain(rejected);
    expect(text).not.toMatch(/python3 -c|docker run --rm|nvidia-smi|ray_status|ibdev2netdev|ping -c|sleep \d/);
    const why = (ordinal: number) => extraction.decisions.filter((d) => d.messageOrdinal === ordinal).map((d) => `${d.kept ? 'kept' : 'dropped'}: ${d.why}`);
    expect(why(13)).toContain('dropped: a step of lmsysorg/sglang:spark, which was rejected');
    expect(why(13)).toContain('dropped: a look-up (web search)');
    expect(why(22)).toEqual(['dropped: failed (exit 1); the same action worked later (#23)', 'dropped: failed (exit 1); the same action worked later (#23)']);
    expect(why(31)).toEqual(['dropped: a check that did not pass yet (the service was still starting)']);
    // One proof per service: the first check that passed after the serve; the others were not needed.
    expect(why(36)).toEqual(['dropped: another check of the same service: the first one that passed is kept']);
    expect(why(41)).toEqual(['dropped: another check of the same service: the first one that passed is kept']);
    expect(why(9)).toContain('dropped: a check of another service (port 8001)');
  });

  it('makes the image (pinned by its recorded digest), model, link and node addresses variables; secrets are environment references, never values', () => {
    expect(plan.variables).toMatchObject({
      image: { value: 'hellohal2064/vllm-qwen3.5-gb10@sha256:5e855267aeeb98c43924d5182fe4dda39c102b060e519065a99c104314c7470f' },
      model: { value: 'Qwen/Qwen3.5-122B-A10B-FP8' },
      network_interface: { value: 'enp1s0f1np1' },
      head_ip: { value: '192.168.200.1' },
      worker_ip: { value: '192.168.200.2' },
      HF_TOKEN: { env: 'HF_TOKEN', secret: true },
      PYPI_PASSWORD: { env: 'PYPI_PASSWORD', secret: true },
    });
    expect(plan.variables['image']?.description).toContain('tag latest');
    // The server was started without a key: no step asks for API_KEY.
    expect(plan.variables['API_KEY']).toBeUndefined();
    const download = plan.steps.find((s) => s.id === 'download-model');
    expect(download?.command).toBe('HF_TOKEN=${HF_TOKEN} ~/.local/bin/hf download {{ model }} 2>&1 | tail -2 && du -sh ~/.cache/huggingface/hub/{{ model | hf_cache_dir }}');
    // Derived values follow their variable: the cache folder and what the model listing must show.
    expect(download?.guard).toContain('/hub/{{ model | hf_cache_dir }}"');
    expect(download?.guard).toContain('blobs/*.incomplete');
    const yaml = planToYaml(plan);
    for (const secret of plantedSecrets()) expect(yaml).not.toContain(secret);
    expect(yaml).not.toContain('REDACTED');
  });

  it('marks guards, destructive steps, timeouts, polls and what the record expects', () => {
    const byId = Object.fromEntries(plan.steps.map((s) => [s.id, s]));
    expect(plan.steps.filter((s) => s.destructive).map((s) => s.id)).toEqual(['stop-vllm-cluster-vllm-proxy', 'stop-vllm-embeddings-vllm-reranker', 'remove-stopped-vllm-qwen35']);
    // A stopped container left with the name is removed first; a running one (or none) is left alone.
    expect(byId['remove-stopped-vllm-qwen35']).toMatchObject({ command: 'docker rm {{ container }}', source: { call_id: null } });
    expect(byId['remove-stopped-vllm-qwen35']?.guard).toContain("docker container inspect -f '{{.State.Running}}' {{ container }}");
    // The cluster check polls until every node has joined (the GPU count of both nodes).
    expect(byId['check-cluster']?.poll).toEqual({ interval_s: 10, max_s: 600 });
    expect(byId['pull-image']).toMatchObject({ guard: 'docker image inspect {{ image }} >/dev/null 2>&1', timeout_s: 1800, expect: { exit: 0, output: '^Digest: sha256:[0-9a-f]{64}$' } });
    expect(byId['download-model']?.timeout_s).toBe(3960);
    expect(byId['check-health']).toMatchObject({ poll: { interval_s: 10, max_s: 900 }, expect: { output: '^200$' }, guard: null });
    expect(byId['serve-model']?.guard).toBe('curl -sf -o /dev/null localhost:8000/health');
    expect(byId['check-cluster']?.expect.output).toBe('[0-9.]+/2\\.0 GPU');
    expect(byId['pull-image']?.source).toEqual({ message_ordinal: 20, call_id: 'toolu_01RFjNoYz375RMpBI3DPoEKo' });
  });

  it('reads back identically after a round trip through YAML', () => {
    const text = planToYaml(plan);
    expect(text).toContain('# recorded as aurora@10.1.230.180, spark-1a32 (never used as a target)');
    expect(parsePlanYaml(text)).toEqual(plan);
    expect(planToYaml(parsePlanYaml(text))).toBe(text);
  });

  it('refuses hand edits that break it, naming the field at fault', () => {
    const text = planToYaml(plan);
    expect(() => parsePlanYaml(text.replace('timeout_s: 1800', 'timeout_s: soon'))).toThrow(/steps\[2\]\.timeout_s/);
    expect(() => parsePlanYaml(text.replace('      - worker\n    command: docker pull', '      - gpu\n    command: docker pull'))).toThrow(/role "gpu" is not declared/);
    expect(() => parsePlanYaml(text.replace('docker pull {{ image }}', 'docker pull {{ imag }}'))).toThrow(/\{\{ imag \}\} is not declared/);
    expect(() => parsePlanYaml(text.replace('id: serve-model', 'id: check-health'))).toThrow(/used twice/);
    expect(() => parsePlanYaml('steps: [')).toThrow(PlanError);
  });
});

describe('pieces of extraction', () => {
  it('tells destructive commands by their verbs, not their words', () => {
    expect(isDestructive('sudo systemctl stop vllm-cluster')).toBe(true);
    expect(isDestructive('docker rm -f vllm-qwen35')).toBe(true);
    expect(isDestructive('docker container rm x')).toBe(true);
    expect(isDestructive('bash -c "pkill -f vllm"')).toBe(true);
    expect(isDestructive('docker run --rm img python3 -c "print(1)"')).toBe(false);
    expect(isDestructive('systemctl is-active vllm-embeddings')).toBe(false);
    expect(isDestructive('echo stop rm kill')).toBe(false);
  });

  it('turns redaction markers (or cleartext secrets) into environment references that expand in any quoting', () => {
    expect(secretsToReferences("curl -H 'Authorization: Bearer [REDACTED:openai-key]' x")).toEqual({
      command: `curl -H 'Authorization: Bearer '"\${API_KEY}"'' x`,
      secrets: [{ name: 'API_KEY', description: 'the Bearer token of the recorded request (openai-key)' }],
    });
    const cleartext = secretsToReferences('HF_TOKEN=hf_FAKEretraceSAMPLEtokenDoNotUse0001 hf download m');
    expect(cleartext.command).toBe('HF_TOKEN=${HF_TOKEN} hf download m');
  });
});

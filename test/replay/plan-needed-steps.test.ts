import { beforeAll, describe, expect, it } from 'vitest';
import { extractPlan, NothingToReplayError, type Extraction } from '../../src/replay/plan/extract.js';
import { planFromStore } from '../../src/replay/plan/load.js';
import { recordedSession, type RecordedSession } from '../../src/replay/plan/recorded.js';
import { loadDerivation } from '../../src/query/stored-derivation.js';
import { Database } from '../../src/store/database.js';
import { writeSynthetic, type SyntheticSession } from '../query/helpers/synthetic-session.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { syntheticPlan } from './helpers/synthetic-plans.js';

/**
 * Steps a plan needs that no later command names, each told by a small session of its own (none
 * is a story of the eval corpus): the config a service reads in the folder it starts in, and the
 * steps between two starts of one thing that the second may need (it cannot move ahead of them),
 * and the service a session ended on when the tree accepted nothing but it answered its check.
 */

const UNIT = [
  '[Unit]',
  'Description=tinyserve',
  '',
  '[Service]',
  'WorkingDirectory=/home/ops/apps/tinyserve',
  'ExecStart=/home/ops/venv/bin/python main.py',
  '',
  '[Install]',
  'WantedBy=default.target',
  '',
].join('\n');

const CONFIG_IN_SERVICE_FOLDER: SyntheticSession = {
  id: 'syn-config-in-service-folder',
  title: 'A server whose config is copied from its sample and edited, run by a user unit in its folder',
  steps: [
    { role: 'user', text: 'Run tinyserve from ~/apps/tinyserve as a user service on port 5000 with the model in ~/models/m.' },
    { role: 'assistant', text: 'Config from the sample.', calls: [{ command: 'cp ~/apps/tinyserve/config_sample.yml ~/apps/tinyserve/config.yml', output: '' }] },
    {
      role: 'assistant', text: 'Pointing it at the model.',
      calls: [{ tool: 'Edit', command: '', input: { file_path: '/home/ops/apps/tinyserve/config.yml', old_string: 'model_dir: models', new_string: 'model_dir: /home/ops/models/m' }, output: 'The file /home/ops/apps/tinyserve/config.yml has been updated.' }],
    },
    {
      role: 'assistant', text: 'A note for later.',
      calls: [{ tool: 'Write', command: '', input: { file_path: '/home/ops/notes/settings.yml', content: 'port: 5000\n' }, output: 'File created successfully at: /home/ops/notes/settings.yml' }],
    },
    {
      role: 'assistant', text: 'The unit.',
      calls: [{ tool: 'Write', command: '', input: { file_path: '/home/ops/.config/systemd/user/tinyserve.service', content: UNIT }, output: 'File created successfully at: /home/ops/.config/systemd/user/tinyserve.service' }],
    },
    { role: 'assistant', text: 'Starting it.', calls: [{ command: 'systemctl --user daemon-reload && systemctl --user enable --now tinyserve.service', output: '' }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: 'sleep 10; curl -s -o /dev/null -w "%{http_code}\\n" localhost:5000/health', output: '200\n' }] },
    { role: 'assistant', text: 'tinyserve answers on 5000.' },
  ],
};

const COMPOSE = 'docker compose -f stacks/ollama/compose.yaml';
const composeEdit = { tool: 'Edit', command: '', input: { file_path: '/home/ops/stacks/ollama/compose.yaml', old_string: 'OLLAMA_KEEP_ALIVE=5m', new_string: 'OLLAMA_KEEP_ALIVE=30m' }, output: 'The file /home/ops/stacks/ollama/compose.yaml has been updated.' };

/** The network the second start joins is made after the model was pulled into the first: the restart cannot move ahead of it. */
const RESTART_AFTER_NEEDED: SyntheticSession = {
  id: 'syn-restart-after-network',
  title: 'A stack up, a model pulled into it, a network made and the stack up again on it',
  steps: [
    { role: 'user', text: 'Bring up the ollama stack in stacks/ollama on this box, pull qwen2.5:14b into it, and put it on the llmnet network.' },
    { role: 'assistant', text: 'Up.', calls: [{ command: `${COMPOSE} up -d`, output: 'Container ollama  Started\n' }] },
    { role: 'assistant', text: 'Pulling the model.', calls: [{ command: `${COMPOSE} exec -T ollama ollama pull qwen2.5:14b`, output: 'success\n' }] },
    { role: 'assistant', text: 'The network.', calls: [{ command: 'docker network create llmnet', output: `${'9'.repeat(64)}\n` }] },
    { role: 'assistant', text: 'Keep-alive and the network in the compose file.', calls: [composeEdit] },
    { role: 'assistant', text: 'Up again.', calls: [{ command: `${COMPOSE} up -d`, output: 'Container ollama  Recreated\n' }] },
    { role: 'assistant', text: 'Check.', calls: [{ command: 'curl -s localhost:11434/api/generate -d \'{"model":"qwen2.5:14b","prompt":"hi","stream":false}\'', output: '{"response":"hi"}' }] },
    { role: 'assistant', text: 'Up on llmnet with the model.' },
  ],
};

/** The network is made before the model is pulled: the restart takes the first start's place, after the network. */
const RESTART_MOVED_AFTER_NEEDED: SyntheticSession = {
  id: 'syn-restart-moved-after-network',
  title: 'A stack up, a network made, a model pulled into it and the stack up again on the network',
  steps: [
    { role: 'user', text: 'Bring up the ollama stack in stacks/ollama on this box, on the llmnet network, with qwen2.5:14b pulled.' },
    { role: 'assistant', text: 'Up.', calls: [{ command: `${COMPOSE} up -d`, output: 'Container ollama  Started\n' }] },
    { role: 'assistant', text: 'The network.', calls: [{ command: 'docker network create llmnet', output: `${'8'.repeat(64)}\n` }] },
    { role: 'assistant', text: 'Pulling the model.', calls: [{ command: `${COMPOSE} exec -T ollama ollama pull qwen2.5:14b`, output: 'success\n' }] },
    { role: 'assistant', text: 'Keep-alive and the network in the compose file.', calls: [composeEdit] },
    { role: 'assistant', text: 'Up again.', calls: [{ command: `${COMPOSE} up -d`, output: 'Container ollama  Recreated\n' }] },
    { role: 'assistant', text: 'Check.', calls: [{ command: 'curl -s localhost:11434/api/generate -d \'{"model":"qwen2.5:14b","prompt":"hi","stream":false}\'', output: '{"response":"hi"}' }] },
    { role: 'assistant', text: 'Up on llmnet with the model.' },
  ],
};

const SERVE = 'docker run -d --name qwen -p 8000:8000 vllm/vllm-openai:v0.8.5 --model Qwen/Qwen2.5-7B-Instruct';
const HEALTH = { command: 'sleep 60; curl -s -o /dev/null -w "%{http_code}\\n" localhost:8000/health', output: '200\n' };

/** The session ends on a server that answered (the tree, wrongly, rejected its image). */
const ENDED_ON_SERVED: SyntheticSession = {
  id: 'syn-ended-on-served',
  title: 'An image pulled and served, the health check answered, and the session ends there',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-7B-Instruct with vllm/vllm-openai:v0.8.5 on this box, port 8000.' },
    { role: 'assistant', text: 'Pulling.', calls: [{ command: 'docker pull vllm/vllm-openai:v0.8.5', output: 'Status: Downloaded newer image for vllm/vllm-openai:v0.8.5\n' }] },
    { role: 'assistant', text: 'Serving.', calls: [{ command: SERVE, output: `${'7'.repeat(64)}\n` }] },
    { role: 'assistant', text: 'Health.', calls: [HEALTH] },
    { role: 'assistant', text: 'Serving on :8000.' },
  ],
};

/** The server answered, and the session went on to start another: that answer deployed nothing. */
const SERVED_THEN_MOVED_ON: SyntheticSession = {
  id: 'syn-served-then-moved-on',
  title: 'A server answered, then another one was started in its place',
  steps: [
    ...ENDED_ON_SERVED.steps.slice(0, 4),
    { role: 'assistant', text: 'Too slow; trying sglang.', calls: [{ command: 'docker rm -f qwen && docker run -d --name qwen-sgl -p 30000:30000 lmsysorg/sglang:v0.4.6 python3 -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct --port 30000', output: `qwen\n${'6'.repeat(64)}\n` }] },
    { role: 'assistant', text: 'Giving up for today.' },
  ],
};

/** The service answered, then the assistant judged it too slow and stopped: the tree's rejection judged that service. */
const SERVED_THEN_TOO_SLOW: SyntheticSession = {
  id: 'syn-served-then-too-slow',
  title: 'A server answered its check, was restarted and answered again, measured far too slow, and the session ends there',
  steps: [
    ...ENDED_ON_SERVED.steps.slice(0, 4),
    { role: 'assistant', text: 'Restarting it with the same settings to be sure.', calls: [{ command: `docker rm -f qwen && ${SERVE}`, output: `qwen\n${'8'.repeat(64)}\n` }] },
    { role: 'assistant', text: 'Health again.', calls: [HEALTH] },
    { role: 'assistant', text: 'It answers, but at 2.1 tokens/s it is far too slow for what you need; I will stop here.' },
  ],
};

const dir = tempDir('retrace-plan-needed-');
const recorded = new Map<string, RecordedSession>();
const plans = new Map<string, Extraction>();

beforeAll(async () => {
  for (const session of [CONFIG_IN_SERVICE_FOLDER, RESTART_AFTER_NEEDED, RESTART_MOVED_AFTER_NEEDED]) {
    plans.set(session.id, await syntheticPlan(dir, session));
  }
  for (const session of [ENDED_ON_SERVED, SERVED_THEN_MOVED_ON]) {
    const dbPath = tempDbPath(dir);
    await writeSynthetic(dbPath, session);
    const db = await Database.open(dbPath);
    try {
      recorded.set(session.id, recordedSession(await loadDerivation(db, session.id)));
    } finally {
      db.close();
    }
  }
});

/** The session as a tree that accepted nothing would have it: every candidate rejected, decided at message `judgedAt`. */
function rejectedAll(id: string, judgedAt: number): RecordedSession {
  const session = recorded.get(id);
  if (!session) throw new Error(`no session ${id}`);
  return { ...session, accepted: null, candidates: session.candidates.map((c) => ({ ...c, verdict: 'rejected', reason: 'exited with code 1', judgedAt })) };
}

/** The message of the call whose command matches. */
function ordinalOf(id: string, pattern: RegExp): number {
  const call = recorded.get(id)?.calls.find((c) => pattern.test(c.command ?? ''));
  if (!call) throw new Error(`no call ${pattern} in ${id}`);
  return call.messageOrdinal;
}

function planOf(id: string): Extraction {
  const extraction = plans.get(id);
  if (!extraction) throw new Error(`no plan for ${id}`);
  return extraction;
}

describe('steps a plan needs though no later command names them', () => {
  it('keeps the edits of a config in the folder a written unit starts its service in, after the copy they edit', () => {
    const { plan } = planOf(CONFIG_IN_SERVICE_FOLDER.id);
    const index = (pattern: RegExp): number => plan.steps.findIndex((step) => pattern.test(step.file?.path ?? step.command));
    const copy = index(/^cp .*config_sample\.yml/);
    const config = plan.steps.findIndex((step) => step.file?.path === '/home/ops/apps/tinyserve/config.yml');
    const start = index(/enable --now tinyserve/);
    expect(copy).toBeGreaterThanOrEqual(0);
    expect(config).toBeGreaterThan(copy);
    expect(start).toBeGreaterThan(config);
    // A settings file elsewhere is a note: no kept step starts anything in its folder.
    expect(plan.steps.some((step) => step.file?.path === '/home/ops/notes/settings.yml')).toBe(false);
  });

  it('keeps a restart after the step between the two starts that it needs, when the first start was used before that step', () => {
    const { plan, decisions } = planOf(RESTART_AFTER_NEEDED.id);
    const at = (pattern: RegExp): number[] => plan.steps.flatMap((step, i) => (pattern.test(step.file?.path ?? step.command) ? [i] : []));
    const ups = at(/compose\.yaml up -d/);
    const [pull] = at(/ollama pull qwen2\.5:14b/);
    const [network] = at(/docker network create llmnet/);
    const [file] = at(/stacks\/ollama\/compose\.yaml$/);
    expect(ups).toHaveLength(2);
    expect([ups[0], pull, network, file, ups[1]].every((value, i, all) => value !== undefined && (i === 0 || value > (all[i - 1] as number)))).toBe(true);
    expect(decisions.some((d) => d.kept && /restarts what #\d+ started/.test(d.why))).toBe(true);
  });

  it('moves a restart to the first start\'s place only as far as the last step it may need', () => {
    const { plan } = planOf(RESTART_MOVED_AFTER_NEEDED.id);
    const at = (pattern: RegExp): number => plan.steps.findIndex((step) => pattern.test(step.file?.path ?? step.command));
    expect(plan.steps.filter((step) => /compose\.yaml up -d/.test(step.command))).toHaveLength(1);
    expect(at(/docker network create llmnet/)).toBeLessThan(at(/stacks\/ollama\/compose\.yaml$/));
    expect(at(/stacks\/ollama\/compose\.yaml$/)).toBeLessThan(at(/compose\.yaml up -d/));
    expect(at(/compose\.yaml up -d/)).toBeLessThan(at(/ollama pull qwen2\.5:14b/));
  });

  it('replays the service a session ended on when it answered its check, though the tree accepted nothing, and says so', () => {
    // Rejected on evidence before the service answered (the pull's message): the record contradicts it.
    const session = rejectedAll(ENDED_ON_SERVED.id, ordinalOf(ENDED_ON_SERVED.id, /^docker pull/));
    expect(session.candidates.length).toBeGreaterThan(0);
    const { plan, decisions } = extractPlan(session);
    expect(plan.steps.some((step) => step.command.includes('docker run -d --name'))).toBe(true);
    expect(plan.steps.at(-1)?.id).toBe('check-health');
    expect(decisions.some((d) => d.kept && /^the session ended on the service started at #\d+, which answered here: the plan replays it, though the tree rejected/.test(d.why))).toBe(true);
  });

  it('gives no plan when the rejection was decided after the service answered (it judged that service: too slow, the user said no)', () => {
    const session = rejectedAll(ENDED_ON_SERVED.id, ordinalOf(ENDED_ON_SERVED.id, /curl/) + 1);
    expect(() => extractPlan(session)).toThrow(NothingToReplayError);
    expect(() => extractPlan(session)).toThrow(/^no plan: /);
  });

  it('gives no plan, through the tree itself, when the service that answered was judged too slow after it', async () => {
    const dbPath = tempDbPath(dir);
    await writeSynthetic(dbPath, SERVED_THEN_TOO_SLOW);
    const db = await Database.open(dbPath);
    try {
      const session = recordedSession(await loadDerivation(db, SERVED_THEN_TOO_SLOW.id));
      expect(session.candidates.some((c) => c.verdict === 'rejected' && c.reason.startsWith('too slow'))).toBe(true);
      await expect(planFromStore(db, SERVED_THEN_TOO_SLOW.id)).rejects.toThrow(NothingToReplayError);
    } finally {
      db.close();
    }
  });

  it('gives no plan when the server that answered was left for another attempt', () => {
    const session = rejectedAll(SERVED_THEN_MOVED_ON.id, ordinalOf(SERVED_THEN_MOVED_ON.id, /^docker pull/));
    expect(() => extractPlan(session)).toThrow(NothingToReplayError);
    expect(() => extractPlan(session)).toThrow(/^no plan: /);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { Extraction } from '../../src/replay/plan/extract.js';
import { planFromStore } from '../../src/replay/plan/load.js';
import { Database } from '../../src/store/database.js';
import { writeSynthetic, type SyntheticSession } from '../query/helpers/synthetic-session.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

/**
 * Steps a plan needs that no later command names, each told by a small session of its own (none
 * is a story of the eval corpus): the config a service reads in the folder it starts in.
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

const dir = tempDir('retrace-plan-needed-');
const plans = new Map<string, Extraction>();

beforeAll(async () => {
  for (const session of [CONFIG_IN_SERVICE_FOLDER]) {
    const dbPath = tempDbPath(dir);
    await writeSynthetic(dbPath, session);
    const db = await Database.open(dbPath);
    try {
      plans.set(session.id, await planFromStore(db, session.id));
    } finally {
      db.close();
    }
  }
});

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
});

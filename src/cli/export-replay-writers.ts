import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderAnsible } from '../replay/export/ansible.js';
import { renderShellScript } from '../replay/export/sh.js';
import { planFromStore } from '../replay/plan/load.js';
import { planValues } from '../replay/plan/render.js';
import type { ExportWriter } from './commands/export.js';

/**
 * The replay exports of `retrace export SESSION --to …`: both start from the session's plan (the
 * one `retrace plan` writes). Listed in EXPORT_WRITERS of ./commands/export.ts.
 */

export const shWriter: ExportWriter = {
  format: 'sh',
  description: 'a standalone bash script replaying the winning path on one host (--role); writes a JSONL run log `retrace ingest` reads',
  defaultPath: () => null,
  write: async ({ db, session }, path) => {
    const { plan } = await planFromStore(db, session.id);
    const script = renderShellScript(plan, planValues(plan), new Date());
    if (!path) return { kind: 'text', text: script };
    writeFileSync(path, script);
    chmodSync(path, 0o755);
    return { kind: 'files', files: [path] };
  },
};

export const ansibleWriter: ExportWriter = {
  format: 'ansible',
  description: 'a playbook and an inventory (one group per role) in a folder, for fleets',
  defaultPath: (session) => `retrace-${session.id}-ansible`,
  write: async ({ db, session }, path) => {
    const { plan } = await planFromStore(db, session.id);
    const folder = path ?? `retrace-${session.id}-ansible`;
    const files = renderAnsible(plan, planValues(plan), new Date());
    mkdirSync(folder, { recursive: true });
    const playbook = join(folder, 'playbook.yml');
    const inventory = join(folder, 'inventory.ini');
    writeFileSync(playbook, files.playbook);
    writeFileSync(inventory, files.inventory);
    return { kind: 'files', files: [playbook, inventory] };
  },
};

export const REPLAY_EXPORT_WRITERS: readonly ExportWriter[] = [shWriter, ansibleWriter];

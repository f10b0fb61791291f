import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plan } from '../core/plan/schema.js';
import { renderAnsible } from '../replay/export/ansible.js';
import { renderPlanMarkdown } from '../replay/export/plan-markdown.js';
import { renderShellScript } from '../replay/export/sh.js';
import { planFromStore } from '../replay/plan/load.js';
import { planValues, renderStep } from '../replay/plan/render.js';
import type { ExportResult, ExportWriter } from './commands/export.js';

/**
 * The replay exports: of a session's plan (`retrace export SESSION --to sh|ansible`, the plan
 * `retrace plan` would write) and of a plan file, edited or not (`retrace export PLAN.yaml --to
 * sh|ansible|markdown`). The plan is checked as `replay` checks it (schema, references, every
 * step's placeholders) before a line is written.
 */

export const PLAN_EXPORT_FORMATS = ['sh', 'ansible', 'markdown'] as const;
export type PlanExportFormat = (typeof PLAN_EXPORT_FORMATS)[number];

/** Values of the plan, with every step rendered once: a placeholder without a variable fails here. */
function checkedValues(plan: Plan): Record<string, string> {
  const values = planValues(plan);
  for (const step of plan.steps) renderStep(step, values);
  return values;
}

export function defaultPlanExportPath(format: PlanExportFormat, name: string): string | null {
  return format === 'ansible' ? `retrace-${name}-ansible` : null;
}

export function writePlanExport(format: PlanExportFormat, plan: Plan, path: string | null, label: string, now = new Date()): ExportResult {
  const values = checkedValues(plan);
  if (format === 'markdown') return { kind: 'text', text: renderPlanMarkdown(plan, values, label) };
  if (format === 'sh') {
    const script = renderShellScript(plan, values, now);
    if (!path) return { kind: 'text', text: script };
    writeFileSync(path, script);
    chmodSync(path, 0o755);
    return { kind: 'files', files: [path] };
  }
  const folder = path ?? `retrace-${plan.session.id}-ansible`;
  const files = renderAnsible(plan, values, now);
  mkdirSync(folder, { recursive: true });
  const playbook = join(folder, 'playbook.yml');
  const inventory = join(folder, 'inventory.ini');
  writeFileSync(playbook, files.playbook);
  writeFileSync(inventory, files.inventory);
  return { kind: 'files', files: [playbook, inventory] };
}

export const shWriter: ExportWriter = {
  format: 'sh',
  description: 'a standalone bash script replaying the winning path, one role per run (the script\'s own `bash replay.sh --role ROLE`); writes a JSONL run log `retrace ingest` reads',
  defaultPath: () => null,
  write: async ({ db, session }, path) => writePlanExport('sh', (await planFromStore(db, session.id)).plan, path, `session:${session.id}`),
};

export const ansibleWriter: ExportWriter = {
  format: 'ansible',
  description: 'a playbook and an inventory (one group per role) in a folder, for fleets',
  defaultPath: (session) => `retrace-${session.id}-ansible`,
  write: async ({ db, session }, path) => writePlanExport('ansible', (await planFromStore(db, session.id)).plan, path ?? `retrace-${session.id}-ansible`, `session:${session.id}`),
};

export const REPLAY_EXPORT_WRITERS: readonly ExportWriter[] = [shWriter, ansibleWriter];

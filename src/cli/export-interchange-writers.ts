import { atifProblems } from '../core/atif/schema.js';
import { exportAtif } from '../query/atif/export-atif.js';
import type { ExportWriter } from './commands/export.js';

/**
 * Exports other tools read: ATIF (Harbor's Agent Trajectory Interchange Format, read by Harbor
 * and NVIDIA NeMo Agent Toolkit) and OTLP/JSON traces (OpenTelemetry collectors, Langfuse,
 * Phoenix). Listed in EXPORT_WRITERS of ./commands/export.ts.
 */

export const atifWriter: ExportWriter = {
  format: 'atif',
  description: 'an ATIF-v1.7 trajectory (JSON): steps, tool calls and observations, subagents embedded; the decision tree in extra',
  defaultPath: () => null,
  write: async ({ db, session }) => {
    const trajectory = await exportAtif(db, session.id);
    // Checked against the schema before it leaves: a file that other tools would refuse is a bug here.
    const problems = atifProblems(trajectory);
    if (problems.length > 0) throw new Error(`export --to atif built an invalid trajectory: ${problems.slice(0, 5).join('; ')}`);
    return { kind: 'text', text: JSON.stringify(trajectory, null, 2) };
  },
};

export const INTERCHANGE_EXPORT_WRITERS: readonly ExportWriter[] = [atifWriter];

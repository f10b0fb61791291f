import { atifProblems } from '../core/atif/schema.js';
import { exportAtif } from '../query/atif/export-atif.js';
import { exportOtlp } from '../query/otlp/export-otlp.js';
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

/** The version in the instrumentation scope of exported spans. */
const RETRACE_VERSION = '0.1.0';

export const otlpWriter: ExportWriter = {
  format: 'otlp',
  description: 'OTLP/JSON traces: a span per session and per tool call (execute_tool, GenAI semantic conventions)',
  defaultPath: () => null,
  write: async ({ db, session }) => ({ kind: 'text', text: JSON.stringify(await exportOtlp(db, session.id, RETRACE_VERSION)) }),
};

export const INTERCHANGE_EXPORT_WRITERS: readonly ExportWriter[] = [atifWriter, otlpWriter];

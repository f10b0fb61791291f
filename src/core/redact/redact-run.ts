import type { RunItem } from '../model.js';
import { redactText, type RedactionCounts } from './redact.js';

/** A run log passes the same redaction as every transcript: commands, outputs, the plan. */
export function redactRunItem(item: RunItem, counts: RedactionCounts): RunItem {
  return {
    ...item,
    run: {
      ...item.run,
      planJson: redactText(item.run.planJson, counts),
      sessionTitle: item.run.sessionTitle === null ? null : redactText(item.run.sessionTitle, counts),
      // `runlog:<file>`: a secret in the log's folder name is a secret like any other.
      origin: redactText(item.run.origin, counts),
    },
    steps: item.steps.map((step) => ({
      ...step,
      description: redactText(step.description, counts),
      command: redactText(step.command, counts),
      guard: step.guard === null ? null : redactText(step.guard, counts),
      output: redactText(step.output, counts),
      detail: step.detail === null ? null : redactText(step.detail, counts),
    })),
  };
}

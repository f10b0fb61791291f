/** Exit codes of the CLI contract (DESIGN.md). */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Bad usage or bad input: exit 2, message without a stack. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The job ran and failed (a step, a query): exit 1, message without a stack. */
export class JobFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobFailedError';
  }
}

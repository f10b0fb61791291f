import type { Migration } from '../migrations.js';

/**
 * `runs.waiting`: what a live run waits for from the terminal that steers it (a destructive step's
 * confirmation, a decision on a failed step, a resume after a pause), as JSON; NULL while it runs
 * on by itself and once it ends. A `retrace tui --run ID` in another terminal follows the run from
 * the store alone, and says what it waits for and where.
 */
export const RUN_WAITING_SCHEMA: Migration = {
  version: 8,
  description: 'runs.waiting: what a live run waits for from its operator',
  statements: [`ALTER TABLE runs ADD COLUMN waiting VARCHAR`],
};
